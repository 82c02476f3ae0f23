import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../api/errors';
import { FakeClock, deferred, settle, type Deferred } from '../test/fakes';
import {
  NoteAutosave,
  SOAP_MAX_CHARACTERS,
  characterCount,
  type NoteApi,
  type ServerNote,
  type SoapText,
} from './autosave';

interface SaveCall {
  version: number;
  changes: Partial<SoapText>;
  reply: Deferred<ServerNote>;
}

/** A fake API whose answers the test gives by hand, keeping the server's note in step. */
class FakeNoteApi implements NoteApi {
  saves: SaveCall[] = [];
  finalizes: Array<{ version: number; reply: Deferred<ServerNote> }> = [];
  loads: Array<Deferred<ServerNote>> = [];
  server: ServerNote;

  constructor(initial: ServerNote) {
    this.server = { ...initial };
  }

  save(version: number, changes: Partial<SoapText>): Promise<ServerNote> {
    const reply = deferred<ServerNote>();
    this.saves.push({ version, changes, reply });
    return reply.promise;
  }

  finalize(version: number): Promise<ServerNote> {
    const reply = deferred<ServerNote>();
    this.finalizes.push({ version, reply });
    return reply.promise;
  }

  load(): Promise<ServerNote> {
    const reply = deferred<ServerNote>();
    this.loads.push(reply);
    return reply.promise;
  }

  /** Answer the oldest unanswered save as the real server would. */
  async accept(index = this.saves.length - 1): Promise<void> {
    const call = this.saves[index];
    this.server = { ...this.server, ...call.changes, version: this.server.version + 1 };
    call.reply.resolve({ ...this.server });
    await settle();
  }
}

const draft: ServerNote = {
  version: 1,
  status: 'draft',
  subjective: 'Came in early.',
  objective: null,
  assessment: null,
  plan: null,
};

function setup(initial: ServerNote = draft) {
  const clock = new FakeClock();
  const api = new FakeNoteApi(initial);
  const saved: string[] = [];
  const editor = new NoteAutosave({
    api,
    clock,
    initial,
    debounceMs: 800,
    onSaved: (_note, kind) => saved.push(kind),
  });
  return { clock, api, editor, saved };
}

const conflict = (current: number) =>
  new ApiError(409, 'version_conflict', 'the note changed since version 1', { current_version: current });

describe('NoteAutosave', () => {
  it('saves once, DEBOUNCE after the last keystroke, with only the changed section and the seen version', async () => {
    const { clock, api, editor } = setup();
    editor.edit('plan', 'R');
    await clock.advance(500);
    editor.edit('plan', 'Review');
    await clock.advance(700);
    expect(api.saves).toHaveLength(0);
    expect(editor.getState().status).toBe('pending');
    await clock.advance(100);
    expect(api.saves).toHaveLength(1);
    expect(api.saves[0].version).toBe(1);
    expect(api.saves[0].changes).toEqual({ plan: 'Review' });
    expect(editor.getState().status).toBe('saving');
    await api.accept();
    const state = editor.getState();
    expect(state.status).toBe('saved');
    expect(state.version).toBe(2);
    expect(state.lastSavedAt).toBe(clock.now());
  });

  it('saves at once on flush (blur, Ctrl+S) without waiting for the debounce', async () => {
    const { clock, api, editor } = setup();
    editor.edit('objective', 'Calm.');
    const done = editor.flush();
    await settle();
    expect(api.saves).toHaveLength(1);
    await api.accept();
    expect(await done).toBe(true);
    await clock.advance(5_000);
    expect(api.saves).toHaveLength(1);
  });

  it('sends one request at a time; what is typed meanwhile goes in the next save at the new version', async () => {
    const { clock, api, editor } = setup();
    editor.edit('plan', 'Weekly');
    await clock.advance(800);
    expect(api.saves).toHaveLength(1);
    editor.edit('plan', 'Weekly sessions');
    await clock.advance(800);
    expect(api.saves).toHaveLength(1); // still waiting for the first answer
    await api.accept(0);
    await settle();
    expect(api.saves).toHaveLength(2);
    expect(api.saves[1]).toMatchObject({ version: 2, changes: { plan: 'Weekly sessions' } });
    await api.accept(1);
    expect(editor.getState()).toMatchObject({ status: 'saved', version: 3, dirty: false });
  });

  it('keeps text typed while a save is in flight as unsaved', async () => {
    const { clock, api, editor } = setup();
    editor.edit('plan', 'A');
    await clock.advance(800);
    editor.edit('plan', 'AB');
    await api.accept(0);
    expect(editor.getState().text.plan).toBe('AB');
    expect(editor.getState().dirty).toBe(true);
  });

  it('on a version conflict stops saving, keeps the text and reports the newer version', async () => {
    const { clock, api, editor } = setup();
    editor.edit('assessment', 'Improving.');
    await clock.advance(800);
    api.saves[0].reply.reject(conflict(4));
    await settle();
    let state = editor.getState();
    expect(state.status).toBe('conflict');
    expect(state.conflictVersion).toBe(4);
    expect(state.text.assessment).toBe('Improving.');
    editor.edit('assessment', 'Improving steadily.');
    await clock.advance(60_000);
    expect(api.saves).toHaveLength(1); // nothing overwritten behind the user's back
    state = editor.getState();
    expect(state.text.assessment).toBe('Improving steadily.');
  });

  it('loading the newer version sets the local text aside instead of dropping it', async () => {
    const { clock, api, editor } = setup();
    editor.edit('assessment', 'Mine.');
    await clock.advance(800);
    api.saves[0].reply.reject(conflict(2));
    await settle();
    const loading = editor.loadNewest();
    api.loads[0].resolve({ ...draft, version: 2, assessment: 'Theirs.' });
    await loading;
    const state = editor.getState();
    expect(state.status).toBe('saved');
    expect(state.version).toBe(2);
    expect(state.text.assessment).toBe('Theirs.');
    expect(state.setAside?.assessment).toBe('Mine.');
  });

  it('keeping mine saves the local text at the newest version, only when asked', async () => {
    const { clock, api, editor } = setup();
    editor.edit('assessment', 'Mine.');
    await clock.advance(800);
    api.saves[0].reply.reject(conflict(2));
    await settle();
    const keeping = editor.keepMine();
    api.loads[0].resolve({ ...draft, version: 2, assessment: 'Theirs.' });
    await settle();
    expect(api.saves).toHaveLength(2);
    expect(api.saves[1]).toMatchObject({ version: 2, changes: { assessment: 'Mine.' } });
    api.server = { ...draft, version: 2, assessment: 'Theirs.' };
    await api.accept(1);
    await keeping;
    expect(editor.getState()).toMatchObject({ status: 'saved', version: 3 });
  });

  it('retries after a network failure with growing delays, keeping the text, until it succeeds', async () => {
    const { clock, api, editor } = setup();
    editor.edit('plan', 'Do not lose me.');
    await clock.advance(800);
    api.saves[0].reply.reject(new NetworkError());
    await settle();
    let state = editor.getState();
    expect(state.status).toBe('retrying');
    expect(state.error?.code).toBe('network');
    expect(state.retryAt).toBe(clock.now() + 1_000);
    await clock.advance(1_000);
    expect(api.saves).toHaveLength(2);
    api.saves[1].reply.reject(new ApiError(503, 'http_503', 'unavailable'));
    await settle();
    expect(editor.getState().retryAt).toBe(clock.now() + 2_000);
    await clock.advance(1_999);
    expect(api.saves).toHaveLength(2);
    await clock.advance(1);
    expect(api.saves).toHaveLength(3);
    expect(api.saves[2].changes).toEqual({ plan: 'Do not lose me.' });
    await api.accept(2);
    state = editor.getState();
    expect(state).toMatchObject({ status: 'saved', error: null, attempt: 0 });
  });

  it('a retry sends text typed while waiting, and retrying now skips the wait', async () => {
    const { clock, api, editor } = setup();
    editor.edit('plan', 'One');
    await clock.advance(800);
    api.saves[0].reply.reject(new NetworkError());
    await settle();
    editor.edit('plan', 'One two');
    await clock.advance(800); // the debounce does not jump the backoff
    expect(api.saves).toHaveLength(1);
    expect(editor.getState().status).toBe('retrying');
    void editor.retryNow();
    await settle();
    expect(api.saves).toHaveLength(2);
    expect(api.saves[1].changes).toEqual({ plan: 'One two' });
  });

  it('honours Retry-After on 429', async () => {
    const { clock, api, editor } = setup();
    editor.edit('plan', 'x');
    await clock.advance(800);
    api.saves[0].reply.reject(new ApiError(429, 'rate_limited', 'slow down', undefined, 20));
    await settle();
    expect(editor.getState().retryAt).toBe(clock.now() + 20_000);
  });

  it('does not retry a save the server refused, and says why; the next edit tries again', async () => {
    const { clock, api, editor } = setup();
    editor.edit('plan', 'x');
    await clock.advance(800);
    api.saves[0].reply.reject(
      new ApiError(422, 'validation_error', 'the request is not valid', [{ field: 'plan', message: 'too long' }]),
    );
    await settle();
    expect(editor.getState().status).toBe('failed');
    expect(editor.getState().error?.message).toContain('plan: too long');
    await clock.advance(60_000);
    expect(api.saves).toHaveLength(1);
    editor.edit('plan', 'xy');
    await clock.advance(800);
    expect(api.saves).toHaveLength(2);
  });

  it("takes the sections' limit from the API schema: 5,000 characters each", () => {
    expect(SOAP_MAX_CHARACTERS).toEqual({ subjective: 5_000, objective: 5_000, assessment: 5_000, plan: 5_000 });
  });

  it('counts characters as the server does, an emoji as one', async () => {
    expect(characterCount('Calm 🙂')).toBe(6);
    const { clock, api, editor } = setup();
    const emoji = '🙂'.repeat(SOAP_MAX_CHARACTERS.plan); // 10,000 UTF-16 units, 5,000 characters
    editor.edit('plan', emoji);
    await clock.advance(800);
    expect(editor.getState().status).not.toBe('invalid');
    expect(api.saves).toHaveLength(1);
  });

  it('does not send a section over 5,000 characters, and keeps it', async () => {
    const { clock, api, editor } = setup();
    const long = 'a'.repeat(SOAP_MAX_CHARACTERS.subjective + 1);
    editor.edit('subjective', long);
    await clock.advance(800);
    expect(api.saves).toHaveLength(0);
    expect(editor.getState().status).toBe('invalid');
    expect(editor.getState().text.subjective).toBe(long);
    editor.edit('subjective', long.slice(1));
    await clock.advance(800);
    expect(api.saves).toHaveLength(1);
  });

  it('finalize saves pending text first, then locks the note', async () => {
    const { api, editor, saved } = setup();
    editor.edit('plan', 'Close the episode.');
    const finalizing = editor.finalize();
    await settle();
    expect(api.saves).toHaveLength(1);
    await api.accept(0);
    expect(api.finalizes).toHaveLength(1);
    expect(api.finalizes[0].version).toBe(2);
    api.finalizes[0].reply.resolve({ ...api.server, version: 3, status: 'finalized' });
    expect(await finalizing).toBe(true);
    expect(editor.getState()).toMatchObject({ mode: 'read-only', noteStatus: 'finalized', version: 3 });
    expect(saved).toEqual(['save', 'finalize']);
    editor.edit('plan', 'ignored');
    expect(editor.getState().text.plan).toBe('Close the episode.');
  });

  it('finalize of an empty note explains what is missing', async () => {
    const { api, editor } = setup({ ...draft, subjective: null });
    const finalizing = editor.finalize();
    await settle();
    api.finalizes[0].reply.reject(new ApiError(422, 'empty_note', 'empty'));
    expect(await finalizing).toBe(false);
    expect(editor.getState().error?.message).toMatch(/at least one section/);
  });

  it('an amendment is saved when asked, not on every keystroke, then the note is read-only again', async () => {
    const finalized: ServerNote = { ...draft, status: 'finalized', version: 3 };
    const { clock, api, editor, saved } = setup(finalized);
    expect(editor.getState().mode).toBe('read-only');
    editor.startAmendment();
    editor.edit('plan', 'Amended plan.');
    await clock.advance(10_000);
    expect(api.saves).toHaveLength(0);
    expect(editor.getState().status).toBe('pending');
    const saving = editor.flush();
    await settle();
    expect(api.saves[0]).toMatchObject({ version: 3, changes: { plan: 'Amended plan.' } });
    await api.accept(0);
    expect(await saving).toBe(true);
    expect(editor.getState()).toMatchObject({ mode: 'read-only', version: 4 });
    expect(saved).toEqual(['amendment']);
  });

  it('cancelling an amendment restores the saved text', () => {
    const { editor } = setup({ ...draft, status: 'finalized' });
    editor.startAmendment();
    editor.edit('plan', 'Changed my mind.');
    editor.cancelAmendment();
    expect(editor.getState()).toMatchObject({ mode: 'read-only', dirty: false });
    expect(editor.getState().text.plan).toBe('');
  });

  it('adopts a newer version read elsewhere when nothing is unsaved, and flags a conflict when something is', async () => {
    const { clock, api, editor } = setup();
    editor.serverUpdate({ ...draft, version: 2, plan: 'From the other tab.' });
    expect(editor.getState()).toMatchObject({ version: 2, status: 'saved' });
    expect(editor.getState().text.plan).toBe('From the other tab.');
    editor.edit('plan', 'Mine');
    editor.serverUpdate({ ...draft, version: 3, plan: 'Newer still.' });
    expect(editor.getState()).toMatchObject({ status: 'conflict', conflictVersion: 3 });
    await clock.advance(5_000);
    expect(api.saves).toHaveLength(0);
  });

  it('stops all timers when disposed', () => {
    const { clock, editor } = setup();
    editor.edit('plan', 'x');
    editor.dispose();
    expect(clock.pending()).toBe(0);
  });
});

describe('NoteAutosave.close', () => {
  it('sends unsaved text before stopping', async () => {
    const { api, editor, clock } = setup();
    editor.edit('plan', 'Typed just before leaving.');
    editor.close();
    await settle();
    expect(api.saves).toHaveLength(1);
    expect(api.saves[0].changes).toEqual({ plan: 'Typed just before leaving.' });
    await api.accept(0);
    expect(clock.pending()).toBe(0);
  });
});

describe('NoteAutosave: kept text and discarding', () => {
  it('restores kept text of a draft and saves it like typing', async () => {
    const { clock, api, editor } = setup();
    editor.restore({ subjective: 'Came in early.', objective: 'Kept offline.', assessment: '', plan: '' });
    expect(editor.getState().text.objective).toBe('Kept offline.');
    await clock.advance(800);
    expect(api.saves.map((call) => call.changes)).toEqual([{ objective: 'Kept offline.' }]);
  });

  it('restores kept text of a finalized note as an amendment, not sent until "Save amendment"', async () => {
    const { clock, api, editor } = setup({ ...draft, status: 'finalized' });
    editor.restore({ subjective: 'Amended.', objective: '', assessment: '', plan: '' });
    expect(editor.getState().mode).toBe('amending');
    expect(editor.hasUnsavedWork()).toBe(true);
    await clock.advance(5_000);
    expect(api.saves).toHaveLength(0);
  });

  it('discards on request: back to the server text, nothing left to save or retry', async () => {
    const { clock, api, editor } = setup();
    editor.edit('plan', 'Typed offline');
    await clock.advance(800);
    api.saves[0].reply.reject(new NetworkError());
    await settle();
    expect(editor.getState().status).toBe('retrying');
    editor.discard();
    expect(editor.hasUnsavedWork()).toBe(false);
    expect(editor.getState().text.plan).toBe('');
    expect(editor.getState().status).toBe('saved');
    await clock.advance(60_000);
    expect(api.saves).toHaveLength(1);
  });
});
