import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canKeepDrafts, draftNoteIds, forgetDraftKey, keepDraft, readDraft, removeDraft, setDraftKey } from './drafts';
import type { Draft } from './drafts';

/** localStorage as the browser has it (Node has none). */
class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
  dump(): string {
    return [...this.items.entries()].map(([key, value]) => `${key}=${value}`).join('\n');
  }
}

const KEY_A = 'q0Jb3y2m8kqj6hJ0y1nX9m2f4kTj3Jw0vQ8lP5sR7tU'; // 32 bytes, base64url
const KEY_B = 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v';
const USER_A = '11111111-1111-4111-8111-111111111111';
const USER_B = '22222222-2222-4222-8222-222222222222';
const NOTE = '33333333-3333-4333-8333-333333333333';
const draft: Draft = {
  text: { subjective: 'Reports panic attacks at work.', objective: '', assessment: '', plan: 'CBT weekly' },
  baseVersion: 4,
  mode: 'draft',
  at: 1_700_000_000_000,
};

let storage: MemoryStorage;

beforeEach(() => {
  storage = new MemoryStorage();
  Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true });
});

afterEach(() => {
  forgetDraftKey();
});

describe('drafts kept on the device', () => {
  it('are encrypted: the storage holds no text, and the same user reads it back', async () => {
    await setDraftKey(USER_A, KEY_A);
    expect(await keepDraft(NOTE, draft)).toBe(true);
    const stored = storage.dump();
    expect(stored).toContain(`carevault.draft.${USER_A}.${NOTE}`);
    expect(stored).not.toMatch(/panic|CBT|weekly|1700000000000/);
    expect(await readDraft(NOTE)).toEqual(draft);
    expect(draftNoteIds()).toEqual([NOTE]);
  });

  it('cannot be read without the key: signed out, another user, or another key', async () => {
    await setDraftKey(USER_A, KEY_A);
    await keepDraft(NOTE, draft);
    forgetDraftKey();
    expect(canKeepDrafts()).toBe(false);
    expect(await readDraft(NOTE)).toBeNull();
    expect(await keepDraft(NOTE, draft)).toBe(false);

    await setDraftKey(USER_B, KEY_B);
    expect(await readDraft(NOTE)).toBeNull(); // another user's drafts are not theirs
    expect(draftNoteIds()).toEqual([]);

    await setDraftKey(USER_A, KEY_B); // the right user with the wrong key: fails to open
    expect(await readDraft(NOTE)).toBeNull();

    await setDraftKey(USER_A, KEY_A); // signed in again: offered back
    expect(await readDraft(NOTE)).toEqual(draft);
  });

  it('are gone once removed, even when an encryption started before is still finishing', async () => {
    await setDraftKey(USER_A, KEY_A);
    const writing = keepDraft(NOTE, draft);
    removeDraft(NOTE);
    await writing;
    expect(storage.length).toBe(0);
    expect(await readDraft(NOTE)).toBeNull();
  });

  it('are not kept when the server offers no key', async () => {
    await setDraftKey(USER_A, null);
    expect(canKeepDrafts()).toBe(false);
    expect(await keepDraft(NOTE, draft)).toBe(false);
    expect(storage.length).toBe(0);
  });
});
