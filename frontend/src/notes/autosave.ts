/**
 * The note editor's saving logic, free of React so it can be tested with a fake clock and a
 * fake API. Rules:
 * - every edit is kept locally at once; a draft is saved DEBOUNCE ms after the last keystroke,
 *   at once on flush() (blur, Ctrl/Cmd+S), one request at a time, sending only changed
 *   sections with the version last seen;
 * - 409 version_conflict stops saving and waits for the user: nothing is overwritten silently;
 * - a network or server failure keeps the text and retries with backoff;
 * - a finalized note is read-only; an amendment is saved explicitly, not on every keystroke.
 */
import { ApiError, NetworkError, fieldErrors, isApiError, isTransient } from '../api/errors';
import { maxLength } from '../api/limits.generated';
import type { Clock } from '../lib/clock';

export const SOAP_FIELDS = ['subjective', 'objective', 'assessment', 'plan'] as const;
export type SoapField = (typeof SOAP_FIELDS)[number];
export type SoapText = Record<SoapField, string>;
/** Each section's limit, as the API's schema declares it (generated from it; the same for a save). */
export const SOAP_MAX_CHARACTERS: Record<SoapField, number> = Object.fromEntries(
  SOAP_FIELDS.map((field) => [field, maxLength.SessionNoteCreate[field]]),
) as Record<SoapField, number>;

/** Characters as the server counts them: code points, so an emoji is one, not two. */
export function characterCount(text: string): number {
  return Array.from(text).length; // the string iterator steps over surrogate pairs whole
}

export interface ServerNote {
  version: number;
  status: 'draft' | 'finalized';
  subjective?: string | null;
  objective?: string | null;
  assessment?: string | null;
  plan?: string | null;
}

export interface NoteApi {
  save(version: number, changes: Partial<SoapText>): Promise<ServerNote>;
  finalize(version: number): Promise<ServerNote>;
  load(): Promise<ServerNote>;
}

export type SaveStatus =
  | 'saved' // the server has everything shown
  | 'pending' // edits not sent yet
  | 'saving'
  | 'retrying' // a save failed for a transient reason; another attempt is scheduled
  | 'failed' // the server refused the save; the next edit or "Retry" tries again
  | 'invalid' // a section is over the limit; not sent until it is shortened
  | 'conflict'; // another tab or device saved a newer version

export type EditorMode = 'draft' | 'read-only' | 'amending';

export interface AutosaveState {
  text: SoapText;
  saved: SoapText;
  version: number;
  noteStatus: 'draft' | 'finalized';
  mode: EditorMode;
  status: SaveStatus;
  dirty: boolean;
  lastSavedAt: number | null;
  error: { message: string; code: string } | null;
  retryAt: number | null;
  attempt: number;
  conflictVersion: number | null;
  busy: 'finalizing' | 'resolving' | null;
  /** The local text set aside when the user loaded the newer version, so it can be copied. */
  setAside: SoapText | null;
}

export interface AutosaveOptions {
  api: NoteApi;
  clock: Clock;
  initial: ServerNote;
  debounceMs?: number;
  retryDelaysMs?: readonly number[];
  /** Called after every successful save or finalize (e.g. to refresh caches). */
  onSaved?(note: ServerNote, kind: 'save' | 'amendment' | 'finalize'): void;
}

export const DEFAULT_RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000] as const;

export function soapFrom(note: ServerNote): SoapText {
  return {
    subjective: note.subjective ?? '',
    objective: note.objective ?? '',
    assessment: note.assessment ?? '',
    plan: note.plan ?? '',
  };
}

export function changedFields(text: SoapText, saved: SoapText): Partial<SoapText> {
  const changes: Partial<SoapText> = {};
  for (const field of SOAP_FIELDS) if (text[field] !== saved[field]) changes[field] = text[field];
  return changes;
}

export function overLimit(text: Partial<SoapText>): SoapField[] {
  return SOAP_FIELDS.filter((field) => characterCount(text[field] ?? '') > SOAP_MAX_CHARACTERS[field]);
}

export class NoteAutosave {
  private text: SoapText;
  private saved: SoapText;
  private version: number;
  private noteStatus: 'draft' | 'finalized';
  private mode: EditorMode;
  private lastSavedAt: number | null = null;
  private error: { message: string; code: string } | null = null;
  private transientFailure = false;
  private attempt = 0;
  private retryAt: number | null = null;
  private conflictVersion: number | null = null;
  private busy: AutosaveState['busy'] = null;
  private setAside: SoapText | null = null;
  private inFlight: Promise<void> | null = null;
  private debounceHandle: unknown = null;
  private retryHandle: unknown = null;
  private disposed = false;
  private state: AutosaveState;
  private readonly listeners = new Set<() => void>();
  private readonly debounceMs: number;
  private readonly retryDelaysMs: readonly number[];

  constructor(private readonly options: AutosaveOptions) {
    this.debounceMs = options.debounceMs ?? 800;
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.text = soapFrom(options.initial);
    this.saved = { ...this.text };
    this.version = options.initial.version;
    this.noteStatus = options.initial.status;
    this.mode = this.noteStatus === 'finalized' ? 'read-only' : 'draft';
    this.state = this.snapshot();
  }

  // --- reading ---------------------------------------------------------------------------

  getState = (): AutosaveState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** True while something typed is not yet on the server. */
  hasUnsavedWork(): boolean {
    return this.isDirty() || this.inFlight !== null;
  }

  /** True while the text differs from what the server has (sent or not). */
  hasUnsavedText(): boolean {
    return this.isDirty();
  }

  // --- editing ---------------------------------------------------------------------------

  edit(field: SoapField, value: string): void {
    if (this.mode === 'read-only' || this.disposed) return;
    this.text = { ...this.text, [field]: value };
    if (this.error && !this.transientFailure) this.error = null;
    if (this.mode === 'draft' && this.conflictVersion === null) this.scheduleDebounce();
    this.emit();
  }

  /** Save now: on blur, Ctrl/Cmd+S, "Save now", "Save amendment". */
  flush(): Promise<boolean> {
    this.cancelDebounce();
    this.cancelRetry();
    return this.saveNow();
  }

  /** After a transient failure: try again without waiting for the backoff. */
  retryNow(): Promise<boolean> {
    return this.flush();
  }

  // --- finalize and amend ------------------------------------------------------------------

  async finalize(): Promise<boolean> {
    if (this.mode !== 'draft' || this.busy) return false;
    if (!(await this.flush())) return false;
    this.busy = 'finalizing';
    this.emit();
    try {
      const note = await this.options.api.finalize(this.version);
      this.adopt(note);
      this.mode = 'read-only';
      this.error = null;
      this.options.onSaved?.(note, 'finalize');
      return true;
    } catch (error) {
      if (isApiError(error, 'version_conflict')) this.enterConflict(error);
      else if (isApiError(error, 'empty_note')) {
        this.fail('Write at least one section before finalizing.', 'empty_note');
      } else if (isApiError(error, 'already_finalized')) {
        this.fail(
          'This note was already finalized, in another tab or by someone else. Load the newest version.',
          'already_finalized',
        );
        this.conflictVersion = this.version + 1;
      } else this.fail(`Not finalized: ${messageFor(error)}`, codeOf(error));
      return false;
    } finally {
      this.busy = null;
      this.emit();
    }
  }

  startAmendment(): void {
    if (this.noteStatus !== 'finalized' || this.mode !== 'read-only') return;
    this.mode = 'amending';
    this.emit();
  }

  cancelAmendment(): void {
    if (this.mode !== 'amending' || this.inFlight) return;
    this.text = { ...this.saved };
    this.mode = 'read-only';
    this.error = null;
    this.conflictVersion = null;
    this.emit();
  }

  // --- conflicts -----------------------------------------------------------------------------

  /** Load what the other tab saved; the local text is set aside (shown for copying). */
  async loadNewest(): Promise<void> {
    await this.resolve((note) => {
      const local = { ...this.text };
      const changed = SOAP_FIELDS.some((field) => local[field] !== (note[field] ?? ''));
      this.setAside = changed ? local : null;
      this.adopt(note);
      this.text = { ...this.saved };
      this.mode = note.status === 'finalized' ? 'read-only' : 'draft';
    });
  }

  /** Deliberately save the local text over the newer version (never done without asking). */
  async keepMine(): Promise<void> {
    await this.resolve((note) => {
      this.adopt(note);
      this.mode = note.status === 'finalized' ? 'amending' : 'draft';
    });
    if (this.mode === 'draft' && this.conflictVersion === null) await this.flush();
  }

  /** Put back text kept from an earlier visit: on a draft it is saved as if typed; on a
   * finalized note it becomes an amendment, which waits for "Save amendment". */
  restore(text: SoapText): void {
    if (this.disposed) return;
    // Finalized meanwhile (here or elsewhere): the kept text becomes an amendment.
    if (this.noteStatus === 'finalized' && this.mode === 'read-only') this.mode = 'amending';
    if (this.mode === 'read-only') return;
    for (const field of SOAP_FIELDS) if (text[field] !== this.text[field]) this.edit(field, text[field]);
  }

  /** The user chose to throw away what is not saved: back to the server's text. */
  discard(): void {
    if (this.inFlight) return;
    this.cancelDebounce();
    this.cancelRetry();
    this.text = { ...this.saved };
    if (this.mode === 'amending') this.mode = 'read-only';
    this.error = null;
    this.transientFailure = false;
    this.attempt = 0;
    this.emit();
  }

  dismissSetAside(): void {
    this.setAside = null;
    this.emit();
  }

  /** A fresh read of the note (refetch on focus, another query): adopt it if nothing is lost. */
  serverUpdate(note: ServerNote): void {
    if (this.disposed || note.version <= this.version || this.inFlight || this.busy) return;
    if (this.isDirty()) {
      if (this.conflictVersion === null) {
        this.cancelDebounce();
        this.cancelRetry();
        this.conflictVersion = note.version;
        this.emit();
      }
      return;
    }
    this.adopt(note);
    this.text = { ...this.saved };
    this.mode = note.status === 'finalized' ? 'read-only' : this.mode === 'amending' ? 'read-only' : 'draft';
    this.emit();
  }

  /** The editor is going away: send what is unsaved first, then stop. */
  close(): void {
    if (!this.hasUnsavedWork() || this.conflictVersion !== null || this.mode !== 'draft') {
      this.dispose();
      return;
    }
    this.listeners.clear();
    void this.flush().finally(() => this.dispose());
  }

  dispose(): void {
    this.disposed = true;
    this.cancelDebounce();
    this.cancelRetry();
    this.listeners.clear();
  }

  // --- internals -------------------------------------------------------------------------------

  private isDirty(): boolean {
    return SOAP_FIELDS.some((field) => this.text[field] !== this.saved[field]);
  }

  private scheduleDebounce(): void {
    this.cancelDebounce();
    this.debounceHandle = this.options.clock.setTimeout(() => {
      this.debounceHandle = null;
      if (this.retryHandle === null) void this.saveNow();
    }, this.debounceMs);
  }

  private cancelDebounce(): void {
    if (this.debounceHandle !== null) this.options.clock.clearTimeout(this.debounceHandle);
    this.debounceHandle = null;
  }

  private cancelRetry(): void {
    if (this.retryHandle !== null) this.options.clock.clearTimeout(this.retryHandle);
    this.retryHandle = null;
    this.retryAt = null;
  }

  /** Send what changed; resolves true when everything shown is on the server. */
  private async saveNow(): Promise<boolean> {
    if (this.disposed) return false;
    // One request at a time: a save asked for meanwhile waits, then sends what is new.
    while (this.inFlight) await this.inFlight;
    if (this.conflictVersion !== null || this.mode === 'read-only') return !this.isDirty();
    const changes = changedFields(this.text, this.saved);
    if (Object.keys(changes).length === 0) {
      if (!this.transientFailure) this.error = null;
      this.emit();
      return this.error === null;
    }
    if (overLimit(this.text).length > 0) {
      this.emit();
      return false;
    }
    const amendment = this.noteStatus === 'finalized';
    const sending = this.send(changes, amendment);
    this.inFlight = sending;
    this.emit();
    await sending;
    if (this.inFlight === sending) this.inFlight = null;
    this.emit();
    return !this.isDirty() && this.error === null && this.conflictVersion === null;
  }

  private async send(changes: Partial<SoapText>, amendment: boolean): Promise<void> {
    try {
      const note = await this.options.api.save(this.version, changes);
      this.version = note.version;
      this.noteStatus = note.status;
      this.saved = { ...this.saved, ...changes };
      this.lastSavedAt = this.options.clock.now();
      this.error = null;
      this.transientFailure = false;
      this.attempt = 0;
      if (amendment && this.mode === 'amending' && !this.isDirty()) this.mode = 'read-only';
      this.options.onSaved?.(note, amendment ? 'amendment' : 'save');
    } catch (error) {
      if (isApiError(error, 'version_conflict')) this.enterConflict(error);
      else if (isTransient(error)) this.scheduleRetry(error);
      else this.fail(`Not saved: ${messageFor(error)}`, codeOf(error));
    }
  }

  private scheduleRetry(error: unknown): void {
    this.transientFailure = true;
    const delays = this.retryDelaysMs;
    let delay = delays[Math.min(this.attempt, delays.length - 1)];
    if (error instanceof ApiError && error.retryAfterSeconds) delay = Math.max(delay, error.retryAfterSeconds * 1000);
    this.attempt += 1;
    this.error = {
      message:
        error instanceof NetworkError
          ? 'Not saved: CareVault could not be reached. Your text is kept here and will be saved when the connection is back.'
          : 'Not saved: the server had a problem. Your text is kept here and saving will be tried again.',
      code: codeOf(error),
    };
    this.cancelRetry();
    this.retryAt = this.options.clock.now() + delay;
    this.retryHandle = this.options.clock.setTimeout(() => {
      this.retryHandle = null;
      this.retryAt = null;
      void this.saveNow();
    }, delay);
  }

  private enterConflict(error: ApiError): void {
    const details = error.details as { current_version?: unknown } | undefined;
    const current = typeof details?.current_version === 'number' ? details.current_version : this.version + 1;
    this.cancelDebounce();
    this.cancelRetry();
    this.conflictVersion = current;
    this.error = null;
    this.transientFailure = false;
  }

  private fail(message: string, code: string): void {
    this.error = { message, code };
    this.transientFailure = false;
  }

  private async resolve(apply: (note: ServerNote) => void): Promise<void> {
    if (this.busy) return;
    this.busy = 'resolving';
    this.emit();
    try {
      const note = await this.options.api.load();
      this.conflictVersion = null;
      this.error = null;
      this.transientFailure = false;
      this.attempt = 0;
      apply(note);
    } catch (error) {
      this.fail(`Could not load the newest version: ${messageFor(error)}`, codeOf(error));
    } finally {
      this.busy = null;
      this.emit();
    }
  }

  private adopt(note: ServerNote): void {
    this.version = note.version;
    this.noteStatus = note.status;
    this.saved = soapFrom(note);
  }

  private status(): SaveStatus {
    if (this.conflictVersion !== null) return 'conflict';
    if (this.inFlight) return 'saving';
    if (this.retryHandle !== null) return 'retrying';
    if (this.error) return 'failed';
    const dirty = this.isDirty();
    if (dirty && overLimit(this.text).length > 0) return 'invalid';
    return dirty ? 'pending' : 'saved';
  }

  private snapshot(): AutosaveState {
    return {
      text: this.text,
      saved: this.saved,
      version: this.version,
      noteStatus: this.noteStatus,
      mode: this.mode,
      status: this.status(),
      dirty: this.isDirty(),
      lastSavedAt: this.lastSavedAt,
      error: this.error,
      retryAt: this.retryAt,
      attempt: this.attempt,
      conflictVersion: this.conflictVersion,
      busy: this.busy,
      setAside: this.setAside,
    };
  }

  private emit(): void {
    if (this.disposed) return;
    this.state = this.snapshot();
    this.listeners.forEach((listener) => listener());
  }
}

function codeOf(error: unknown): string {
  if (error instanceof ApiError) return error.code;
  if (error instanceof NetworkError) return 'network';
  return 'unknown';
}

function messageFor(error: unknown): string {
  if (error instanceof NetworkError) return 'CareVault could not be reached.';
  if (error instanceof ApiError) {
    if (error.code === 'csrf_failed') return 'this tab needs you to confirm your password first.';
    if (error.status === 401) return 'you are signed out. Sign in again to save.';
    const fields = Object.entries(fieldErrors(error));
    if (error.code === 'validation_error' && fields.length > 0) {
      return fields.map(([field, message]) => `${field}: ${message}`).join('; ');
    }
    return error.message.endsWith('.') ? error.message : `${error.message}.`;
  }
  return error instanceof Error ? error.message : 'unknown error.';
}
