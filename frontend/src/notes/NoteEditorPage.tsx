import { useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type RefObject } from 'react';
import { Link, useBlocker, useNavigate, useParams } from 'react-router';
import type { Note } from '../api/client';
import { useClient } from '../api/clients';
import { maxLength } from '../api/limits.generated';
import { newNoteEditorApi, noteEditorApi, useAttestations, useNote, useNoteSaved, type NoteCreate } from '../api/notes';
import { useSignedIn } from '../auth/AuthProvider';
import { realClock } from '../lib/clock';
import { formatCount, formatDateKey, formatDateTime, formatTime, fullName } from '../lib/format';
import { useDocumentTitle, useNow } from '../lib/hooks';
import { registerUnsaved } from '../lib/unsaved';
import { todayIn } from '../calendar/zone';
import { Banner, Dialog, ErrorState, Loading, StatusBadge } from '../ui/components';
import {
  NoteAutosave,
  SOAP_FIELDS,
  SOAP_MAX_CHARACTERS,
  characterCount,
  type AutosaveState,
  type SoapField,
} from './autosave';
import { canKeepDrafts, keepDraft, readDraft, removeDraft, type Draft } from './drafts';
import { SECTION_LABELS } from './sections';
import { PsychotherapyMark } from './PsychotherapyMark';
import { SignaturePanel } from './SignaturePanel';
import { VersionHistory } from './VersionHistory';
import { routes, type RouteParams } from '../routes';

export function NoteEditorPage() {
  const { noteId = '' } = useParams<RouteParams<'note'>>();
  const note = useNote(noteId);
  // Once shown, the editor stays even when a later read fails (offline, session over):
  // unmounting it would take the typed text with it.
  if (note.data) return <NoteEditor key={noteId} initial={note.data} latest={note.data} />;
  if (note.isPending) return <Loading label="Loading the note…" />;
  return <ErrorState error={note.error} title="This note could not be opened" onRetry={() => void note.refetch()} />;
}

/** "New note": an editor for a note that the first keystroke creates (nothing before). */
export function NewNotePage() {
  const { clientId = '' } = useParams<RouteParams<'newNote'>>();
  const navigate = useNavigate();
  const noteSaved = useNoteSaved();
  const { user, workspace } = useSignedIn();
  // Read through refs: the editor is made once for the page, whatever re-renders.
  const navigateRef = useRef(navigate);
  const noteSavedRef = useRef(noteSaved);
  useEffect(() => {
    navigateRef.current = navigate;
    noteSavedRef.current = noteSaved;
  });
  const [placeholder] = useState<Note>(() => {
    const now = new Date().toISOString();
    return {
      id: '',
      client_id: clientId,
      appointment_id: null,
      // The practice's today, as the server checks it (not the browser's zone).
      session_date: todayIn(workspace.time_zone),
      duration_minutes: 50,
      status: 'draft',
      version: 0,
      created_at: now,
      updated_at: now,
      deleted_at: null,
      finalized_at: null,
      author_id: user.id,
      signed_by: null,
      signed_at: null,
      attestation_version: null,
      late_entry: false,
      cosign_status: null,
      cosigned_by: null,
      cosigned_at: null,
      cosign_attestation_version: null,
    };
  });
  const [editor, setEditor] = useState<NoteAutosave | null>(null);
  useEffect(() => {
    const body: NoteCreate = {
      client_id: placeholder.client_id,
      session_date: placeholder.session_date,
      duration_minutes: placeholder.duration_minutes,
    };
    let createdId: string | null = null;
    const instance = new NoteAutosave({
      clock: realClock,
      initial: placeholder,
      api: newNoteEditorApi(body, (note) => (createdId = note.id)),
      onSaved: (saved, kind) => {
        if (!createdId) return;
        const note = { ...placeholder, id: createdId };
        noteSavedRef.current(note, saved, kind);
        if (!instance.hasUnsavedText()) removeDraft(createdId);
        if (!handedOver.has(createdId)) {
          // The note exists: its own address from now on, with this very editor.
          handedOver.set(createdId, instance);
          void navigateRef.current(routes.note(createdId), { replace: true });
        }
      },
    });
    setEditor(instance);
    return () => {
      if (![...handedOver.values()].includes(instance)) instance.close();
    };
  }, [placeholder]);
  if (!editor) return <Loading label="Opening the editor…" />;
  return <NoteEditorView editor={editor} note={placeholder} />;
}

/** Editors of new notes passed on to the note's own address once it exists. */
const handedOver = new Map<string, NoteAutosave>();

function useAutosave(initial: Note, amendmentReason: RefObject<string>) {
  const noteSaved = useNoteSaved();
  const [editor, setEditor] = useState<NoteAutosave | null>(null);
  useEffect(() => {
    const adopted = handedOver.get(initial.id);
    const instance =
      adopted ??
      new NoteAutosave({
        clock: realClock,
        initial,
        api: noteEditorApi(initial.id, () => amendmentReason.current),
        onSaved: (saved, kind) => {
          noteSaved(initial, saved, kind);
          // Saved after the editor closed (leaving the page sends what is left): the kept
          // copy is not needed any more.
          if (!instance.hasUnsavedText()) removeDraft(initial.id);
        },
      });
    if (adopted) handedOver.delete(initial.id);
    setEditor(instance);
    return () => instance.close();
    // The editor is made once per note; later reads reach it through serverUpdate.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [initial.id]);
  return editor;
}

function NoteEditor({ initial, latest }: { initial: Note; latest: Note }) {
  // The reason of the amendment being made; sent only while amending (see NoteEditorView).
  const amendmentReason = useRef('');
  const editor = useAutosave(initial, amendmentReason);
  useEffect(() => {
    editor?.serverUpdate(latest);
  }, [editor, latest]);
  if (!editor) return <Loading label="Opening the editor…" />;
  return <NoteEditorView editor={editor} note={latest} amendmentReason={amendmentReason} />;
}

/**
 * Unsaved text kept on this device (encrypted, see drafts.ts) while it is not on the server,
 * and offered back when the note is opened again. Returns the draft on offer, if any.
 */
function useKeptDraft(editor: NoteAutosave, noteId: string) {
  const [offer, setOffer] = useState<Draft | null>(null);
  // True until the kept draft is read, and while it is offered: nothing kept is replaced or
  // removed before the user chose.
  const offering = useRef(true);
  useEffect(() => {
    if (!noteId) return;
    let live = true;
    offering.current = true;
    void readDraft(noteId).then((draft) => {
      if (!live) return;
      const { text } = editor.getState();
      if (draft && SOAP_FIELDS.some((field) => draft.text[field] !== text[field])) {
        setOffer(draft);
        return;
      }
      offering.current = false;
      if (draft) removeDraft(noteId); // what was kept is what the server has
    });
    return () => {
      live = false;
    };
  }, [editor, noteId]);

  useEffect(() => {
    if (!noteId) return;
    let handle: ReturnType<typeof setTimeout> | null = null;
    const keepNow = () => {
      handle = null;
      const state = editor.getState();
      if (offering.current || !state.dirty || state.mode === 'read-only') return;
      void keepDraft(noteId, {
        text: state.text,
        baseVersion: state.version,
        mode: state.mode === 'amending' ? 'amending' : 'draft',
        at: Date.now(),
      });
    };
    const unsubscribe = editor.subscribe(() => {
      const state = editor.getState();
      if (offering.current) return;
      if (!state.dirty) {
        if (handle !== null) clearTimeout(handle);
        handle = null;
        removeDraft(noteId);
      } else if (handle === null) handle = setTimeout(keepNow, 300);
    });
    return () => {
      unsubscribe();
      if (handle !== null) {
        clearTimeout(handle);
        keepNow(); // leaving: keep the last keystrokes too
      }
    };
  }, [editor, noteId]);

  return {
    offer,
    restore: () => {
      if (!offer) return;
      offering.current = false;
      setOffer(null);
      editor.restore(offer.text);
    },
    discard: () => {
      offering.current = false;
      setOffer(null);
      removeDraft(noteId);
    },
  };
}

function NoteEditorView({
  editor,
  note,
  amendmentReason,
}: {
  editor: NoteAutosave;
  note: Note;
  /** Where the amendment's reason is read from when it is saved; a new note has none. */
  amendmentReason?: RefObject<string>;
}) {
  const state = useSyncExternalStore(editor.subscribe, editor.getState);
  const attestations = useAttestations();
  const [reason, setReason] = useState('');
  const reasonId = useId();
  const amending = state.mode === 'amending';
  // A reason belongs to one amendment: cleared when it is saved or cancelled.
  useEffect(() => {
    if (!amending) setReason('');
  }, [amending]);
  useEffect(() => {
    if (amendmentReason) amendmentReason.current = amending ? reason : '';
  }, [amending, reason, amendmentReason]);
  const client = useClient(note.client_id);
  const { canWrite } = useSignedIn();
  const clientName = client.data ? fullName(client.data) : 'Client';
  useDocumentTitle(`Note · ${client.data ? clientName : formatDateKey(note.session_date)}`);
  const [confirmFinalize, setConfirmFinalize] = useState(false);
  const readOnly = state.mode === 'read-only';
  const noteId = note.id;
  const kept = useKeptDraft(editor, noteId);

  // The session's end (idle logoff, time limit) saves this first, and keeps the screen when
  // it cannot. An amendment is never sent without "Save amendment": it is only kept.
  const unsaved = useMemo(
    () => ({
      hasUnsavedWork: () => editor.hasUnsavedWork(),
      flush: (): Promise<boolean> =>
        editor.getState().mode === 'draft' ? editor.flush() : Promise.resolve(!editor.hasUnsavedWork()),
    }),
    [editor],
  );
  useEffect(() => registerUnsaved(unsaved), [unsaved]);

  // A save refused for want of the CSRF token goes out again once the password is confirmed.
  const csrfRefused = state.error?.code === 'csrf_failed';
  useEffect(() => {
    if (canWrite && csrfRefused) void editor.flush();
  }, [canWrite, csrfRefused, editor]);

  // Ctrl/Cmd+S saves (the browser's "save page" is of no use here).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void editor.flush();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [editor]);

  // Leaving the page with text that is not saved: the browser asks first.
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (editor.hasUnsavedWork()) event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [editor]);

  // Leaving for another screen with anything not on the server (typed, being saved, failed,
  // an amendment): asked at the moment of the click, not from the last render, because the
  // click's own blur starts a save that may still fail.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      currentLocation.pathname !== nextLocation.pathname &&
      ![...handedOver.values()].includes(editor) &&
      editor.hasUnsavedWork(),
  );
  const blocked = blocker.state === 'blocked';
  // The save that the click started went through: nothing to ask.
  const settled = blocked && !state.dirty && state.status === 'saved';
  useEffect(() => {
    if (settled) blocker.proceed?.();
  }, [settled, blocker]);
  const mayKeep = canKeepDrafts() && noteId !== '';

  return (
    <article className="note-editor" aria-labelledby="note-title">
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <Link to={routes.calendar()}>Calendar</Link>
        <span aria-hidden="true"> / </span>
        <Link to={routes.client(note.client_id)}>{clientName}</Link>
      </nav>
      <header className="page-header">
        <div>
          <h1 id="note-title">Session note: {clientName}</h1>
          <p className="muted">
            {formatDateKey(note.session_date)} · {note.duration_minutes} minutes ·{' '}
            <StatusBadge status={state.noteStatus} /> · version {state.version}
            {note.finalized_at && <> · finalized {formatDateTime(note.finalized_at)}</>}
          </p>
        </div>
        <SaveIndicator state={state} onRetry={() => void editor.retryNow()} />
      </header>
      {/* Signature, co-signature and addenda: display only, the server's note (no editor state). */}
      {noteId && <SignaturePanel note={note} canAct={readOnly && state.busy === null} />}
      {noteId && <PsychotherapyMark note={note} state={state} />}

      {state.conflictVersion !== null && (
        <Banner tone="warning" title="Another tab or device saved a newer version of this note">
          <p>
            Version {state.conflictVersion} was saved somewhere else while you were editing here. Your changes in this
            tab have not been saved, so nothing was overwritten. Load the newer version (your text from this tab stays
            available to copy), or save your version over it.
          </p>
          <div className="actions">
            <button
              type="button"
              className="button button-primary"
              disabled={state.busy !== null}
              onClick={() => void editor.loadNewest()}
            >
              Load newer version
            </button>
            <button
              type="button"
              className="button"
              disabled={state.busy !== null}
              onClick={() => void editor.keepMine()}
            >
              Save my version over it
            </button>
          </div>
        </Banner>
      )}
      {state.error && state.status !== 'conflict' && (
        <Banner tone={state.status === 'retrying' ? 'warning' : 'danger'} role="alert">
          <p>{state.error.message}</p>
          {!canWrite && <p>Use “Confirm password” above, then save again.</p>}
        </Banner>
      )}
      {kept.offer && (
        <KeptDraftOffer draft={kept.offer} version={state.version} onRestore={kept.restore} onDiscard={kept.discard} />
      )}
      {state.setAside && <SetAside state={state} onDismiss={() => editor.dismissSetAside()} />}
      {state.mode === 'amending' && (
        <Banner tone="info" title="Amending a finalized note">
          <p>When you save, the current text is kept in the version history and your amendment becomes the note.</p>
          <label htmlFor={reasonId}>Reason for the amendment (required)</label>
          <input
            id={reasonId}
            className="input"
            required
            maxLength={maxLength.SessionNoteUpdate.reason}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        </Banner>
      )}

      <form
        className="soap"
        aria-label="SOAP note"
        onSubmit={(event) => {
          event.preventDefault();
          void editor.flush();
        }}
      >
        {SOAP_FIELDS.map((field) => (
          <SoapSection
            key={field}
            field={field}
            value={state.text[field]}
            readOnly={readOnly}
            onChange={(value) => editor.edit(field, value)}
            onBlur={() => {
              if (state.mode === 'draft') void editor.flush();
            }}
          />
        ))}
        <div className="actions note-actions">
          {state.mode === 'draft' && (
            <>
              <button type="submit" className="button" aria-keyshortcuts="Control+S Meta+S">
                Save now
              </button>
              <button
                type="button"
                className="button button-primary"
                disabled={state.busy !== null || state.status === 'conflict'}
                onClick={() => setConfirmFinalize(true)}
              >
                Finalize note
              </button>
            </>
          )}
          {state.mode === 'read-only' && state.noteStatus === 'finalized' && (
            <button type="button" className="button" onClick={() => editor.startAmendment()}>
              Amend note
            </button>
          )}
          {state.mode === 'amending' && (
            <>
              <button
                type="submit"
                className="button button-primary"
                disabled={!state.dirty || state.status === 'saving' || !reason.trim()}
              >
                Save amendment
              </button>
              <button type="button" className="button" onClick={() => editor.cancelAmendment()}>
                Cancel amendment
              </button>
            </>
          )}
        </div>
      </form>

      <Dialog title="Finalize this note?" open={confirmFinalize} onClose={() => setConfirmFinalize(false)}>
        <p>
          A finalized note is locked. Any later change is an amendment, and the earlier text is kept in the version
          history.
        </p>
        {attestations.data && (
          <p>
            By finalizing you sign the note: <strong>{attestations.data.signature.text}</strong>
          </p>
        )}
        <div className="actions">
          <button
            type="button"
            className="button button-primary"
            onClick={() => {
              setConfirmFinalize(false);
              void editor.finalize();
            }}
          >
            Finalize
          </button>
          <button type="button" className="button" onClick={() => setConfirmFinalize(false)}>
            Keep editing
          </button>
        </div>
      </Dialog>

      <Dialog
        title="Leave without saving?"
        open={blocked && !settled && state.status !== 'saving'}
        onClose={() => blocker.reset?.()}
        role="alertdialog"
      >
        <p>
          {state.mode === 'amending'
            ? 'Your amendment is not saved yet.'
            : state.error?.code === 'network'
              ? 'Some of this note is not saved yet: CareVault cannot be reached.'
              : 'Some of this note is not saved yet.'}{' '}
          {mayKeep
            ? 'If you leave, it stays on this device, encrypted, and is offered back when you open this note again.'
            : 'If you leave now, those changes will be lost.'}
        </p>
        <div className="actions">
          <button type="button" className="button button-primary" onClick={() => blocker.reset?.()}>
            Stay on this note
          </button>
          {mayKeep && (
            <button type="button" className="button" onClick={() => blocker.proceed?.()}>
              Leave and keep my text on this device
            </button>
          )}
          <button
            type="button"
            className="button button-danger"
            onClick={() => {
              editor.discard();
              if (noteId) removeDraft(noteId);
              blocker.proceed?.();
            }}
          >
            Discard my changes and leave
          </button>
        </div>
      </Dialog>

      {noteId && (
        <VersionHistory noteId={noteId} finalized={state.noteStatus === 'finalized'} currentVersion={state.version} />
      )}
    </article>
  );
}

function SoapSection({
  field,
  value,
  readOnly,
  onChange,
  onBlur,
}: {
  field: SoapField;
  value: string;
  readOnly: boolean;
  onChange: (value: string) => void;
  onBlur: () => void;
}) {
  const id = useId();
  const { label, hint } = SECTION_LABELS[field];
  const limit = SOAP_MAX_CHARACTERS[field];
  const length = characterCount(value);
  const over = length - limit;
  return (
    <div className={`soap-section${over > 0 ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <p className="field-hint" id={`${id}-hint`}>
        {hint}
      </p>
      <textarea
        id={id}
        value={value}
        readOnly={readOnly}
        rows={5}
        spellCheck
        aria-describedby={`${id}-hint ${id}-count`}
        aria-invalid={over > 0 || undefined}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
      />
      <p className={`count${over > 0 ? ' count-over' : ''}`} id={`${id}-count`}>
        {formatCount(length)} / {formatCount(limit)} characters
        {over > 0 && ` — ${formatCount(over)} over the limit; shorten it to save`}
      </p>
    </div>
  );
}

function SaveIndicator({ state, onRetry }: { state: AutosaveState; onRetry: () => void }) {
  const now = useNow(1_000);
  let text: string;
  switch (state.status) {
    case 'saved':
      text = state.lastSavedAt
        ? `All changes saved at ${formatTime(new Date(state.lastSavedAt))}`
        : 'All changes saved';
      if (state.mode === 'read-only') text = state.noteStatus === 'finalized' ? 'Locked: amend to change' : 'Saved';
      break;
    case 'pending':
      text = state.mode === 'amending' ? 'Amendment not saved yet' : 'Unsaved changes';
      break;
    case 'saving':
      text = 'Saving…';
      break;
    case 'retrying': {
      const seconds = state.retryAt ? Math.max(0, Math.ceil((state.retryAt - now) / 1000)) : 0;
      text = `Not saved — retrying in ${seconds} s`;
      break;
    }
    case 'failed':
      text = 'Not saved';
      break;
    case 'invalid':
      text = 'Not saved — a section is too long';
      break;
    case 'conflict':
      text = 'Not saved — a newer version exists';
      break;
  }
  const bad = ['retrying', 'failed', 'invalid', 'conflict'].includes(state.status);
  return (
    <div className={`save-indicator${bad ? ' save-indicator-bad' : ''}`}>
      <span role="status" aria-live="polite" className="save-text">
        {state.busy === 'finalizing' ? 'Finalizing…' : text}
      </span>
      {state.status === 'retrying' && (
        <button type="button" className="button button-small" onClick={onRetry}>
          Retry now
        </button>
      )}
    </div>
  );
}

function SetAside({ state, onDismiss }: { state: AutosaveState; onDismiss: () => void }) {
  const setAside = state.setAside!;
  const fields = SOAP_FIELDS.filter((field) => setAside[field] !== state.text[field]);
  return (
    <section className="set-aside" aria-labelledby="set-aside-title">
      <h2 id="set-aside-title">Your text from this tab (not saved)</h2>
      <p className="muted">Copy anything you still need into the note above, then dismiss this.</p>
      {fields.map((field) => (
        <div className="field" key={field}>
          <label htmlFor={`set-aside-${field}`}>Your {SECTION_LABELS[field].label.toLowerCase()}</label>
          <textarea id={`set-aside-${field}`} readOnly value={setAside[field]} rows={4} />
        </div>
      ))}
      <button type="button" className="button" onClick={onDismiss}>
        Dismiss my unsaved text
      </button>
    </section>
  );
}

function KeptDraftOffer({
  draft,
  version,
  onRestore,
  onDiscard,
}: {
  draft: Draft;
  version: number;
  onRestore: () => void;
  onDiscard: () => void;
}) {
  const fields = SOAP_FIELDS.filter((field) => draft.text[field]);
  return (
    <section className="set-aside" aria-labelledby="kept-draft-title">
      <h2 id="kept-draft-title">Unsaved text kept on this device</h2>
      <p>
        {draft.mode === 'amending' ? 'An amendment' : 'Text'} you typed on {formatDateTime(new Date(draft.at))} was not
        saved ({fields.map((field) => SECTION_LABELS[field].label).join(', ') || 'empty sections'}).
        {draft.baseVersion !== version &&
          ` The note has changed since (version ${draft.baseVersion} then, ${version} now): restoring puts your text over it.`}
      </p>
      <div className="actions">
        <button type="button" className="button button-primary" onClick={onRestore}>
          Restore my text
        </button>
        <button type="button" className="button" onClick={onDiscard}>
          Discard it
        </button>
      </div>
    </section>
  );
}
