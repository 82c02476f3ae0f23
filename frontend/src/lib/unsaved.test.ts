import { describe, expect, it } from 'vitest';
import { anyUnsavedWork, registerUnsaved, saveAllUnsaved } from './unsaved';

function holder(unsaved: boolean, saves: boolean) {
  const work = {
    unsaved,
    flushes: 0,
    hasUnsavedWork: () => work.unsaved,
    flush: () => {
      work.flushes += 1;
      if (saves) work.unsaved = false;
      return saves ? Promise.resolve(true) : Promise.reject(new Error('offline'));
    },
  };
  return work;
}

describe('unsaved work', () => {
  it('is saved before a session ends; what cannot be saved is reported, not thrown', async () => {
    const saving = holder(true, true);
    const offline = holder(true, false);
    const clean = holder(false, true);
    const off = [registerUnsaved(saving), registerUnsaved(offline), registerUnsaved(clean)];
    expect(anyUnsavedWork()).toBe(true);
    expect(await saveAllUnsaved()).toBe(false);
    expect([saving.flushes, offline.flushes, clean.flushes]).toEqual([1, 1, 0]);
    expect(saving.unsaved).toBe(false);
    off[1]();
    expect(anyUnsavedWork()).toBe(false);
    expect(await saveAllUnsaved()).toBe(true);
    off.forEach((unregister) => unregister());
  });
});
