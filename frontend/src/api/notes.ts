/** Session notes (the API's `/sessions`): the reads, the creates, and what the editor sends. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { NoteApi, ServerNote } from '../notes/autosave';
import { NoteNotYetPossible, canStartNote, durationOf, sessionDateOf } from '../notes/openNote';
import { api, call, type Appointment, type Note, type Schemas } from './client';
import { IDEMPOTENCY_HEADER, createOnce, newIdempotencyKey, type IdempotencyHeader } from './idempotency';
import { keys } from './keys';

export type NoteCreate = Schemas['SessionNoteCreate'];

export function useNote(noteId: string) {
  return useQuery({
    queryKey: keys.notes.detail(noteId),
    queryFn: () => call(api.GET('/api/v1/sessions/{note_id}', { params: { path: { note_id: noteId } } })),
    staleTime: 0,
  });
}

export function useNoteVersions(noteId: string) {
  return useQuery({
    queryKey: keys.notes.versions(noteId),
    // Amendments are few; one page of 100 holds a note's whole history.
    queryFn: () =>
      call(
        api.GET('/api/v1/sessions/{note_id}/versions', {
          params: { path: { note_id: noteId }, query: { page_size: 100 } },
        }),
      ),
    select: (page) => page.items,
  });
}

export function useClientNotes(clientId: string, page: number) {
  return useQuery({
    queryKey: keys.notes.ofClientPage(clientId, page),
    queryFn: () =>
      call(api.GET('/api/v1/sessions', { params: { query: { client_id: clientId, page, page_size: 20 } } })),
    placeholderData: keepPreviousData,
  });
}

function createNote(body: NoteCreate): Promise<Note> {
  return createOnce((header) => call(api.POST('/api/v1/sessions', { params: { header }, body })));
}

function useNoteCreated() {
  const queryClient = useQueryClient();
  return (note: Note) => {
    queryClient.setQueryData(keys.notes.detail(note.id), note);
    void queryClient.invalidateQueries({ queryKey: keys.notes.ofClient(note.client_id) });
  };
}

/** A new draft; the caller usually opens it. */
export function useCreateNote() {
  const created = useNoteCreated();
  return useMutation({ mutationFn: createNote, onSuccess: created });
}

/** From an appointment to its note: the existing one, or a new draft for it (not before the
 * day of the session: notes cannot be dated in the future). Resolves to the note's id. */
export async function findOrCreateNote(
  appointment: Appointment,
  onCreated?: (note: Note) => void,
  zone?: string,
): Promise<string> {
  const notes = await call(
    api.GET('/api/v1/sessions', { params: { query: { client_id: appointment.client_id, page_size: 100 } } }),
  );
  const existing = notes.items.find((note) => note.appointment_id === appointment.id);
  if (existing) return existing.id;
  if (!canStartNote(appointment, new Date(), zone)) throw new NoteNotYetPossible('future');
  const created = await createNote({
    client_id: appointment.client_id,
    appointment_id: appointment.id,
    session_date: sessionDateOf(appointment, zone),
    duration_minutes: durationOf(appointment),
  });
  onCreated?.(created);
  return created.id;
}

/** `zone`: the practice's time zone, which dates the session as the server does. */
export function useOpenAppointmentNote(zone?: string) {
  const created = useNoteCreated();
  return useMutation({ mutationFn: (appointment: Appointment) => findOrCreateNote(appointment, created, zone) });
}

function attestations() {
  return call(api.GET('/api/v1/sessions/attestations'));
}

/** The statements a signer and a co-signer attest (shown before signing). */
export function useAttestations() {
  return useQuery({ queryKey: keys.notes.attestations(), queryFn: attestations, staleTime: Infinity });
}

/** What the note editor's autosave sends for one note. `amendmentReason`: the reason typed
 * for the amendment being made, sent with its save (a save with a reason is an amendment). */
export function noteEditorApi(noteId: string, amendmentReason: () => string = () => ''): NoteApi {
  const path = { params: { path: { note_id: noteId } } };
  return {
    save: (version, changes) => {
      const reason = amendmentReason().trim();
      const body = reason ? { version, ...changes, reason } : { version, ...changes };
      return call(api.PATCH('/api/v1/sessions/{note_id}', { ...path, body }));
    },
    // Signing attests the current signature statement, the one the dialog showed.
    finalize: async (version) => {
      const { signature } = await attestations();
      return call(
        api.POST('/api/v1/sessions/{note_id}/finalize', {
          ...path,
          body: { version, attestation_version: signature.version },
        }),
      );
    },
    load: () => call(api.GET('/api/v1/sessions/{note_id}', path)),
  };
}

/**
 * The editor of a note that does not exist yet ("New note"): nothing is created until the
 * first save, which the first keystroke starts. That save creates the note (client, date,
 * duration only, always with the same Idempotency-Key, so a retry after a lost answer cannot
 * create a second note), then sends the text like any other save. `onCreated` hears the new
 * note once.
 */
export function newNoteEditorApi(body: NoteCreate, onCreated: (note: Note) => void): NoteApi {
  const header: IdempotencyHeader = { [IDEMPOTENCY_HEADER]: newIdempotencyKey() };
  let created: Note | null = null;
  const existing = async (): Promise<Note> => {
    if (!created) {
      created = await call(api.POST('/api/v1/sessions', { params: { header }, body }));
      onCreated(created);
    }
    return created;
  };
  return {
    save: async (version, changes) => {
      const note = await existing();
      // Version 0 is the editor's "not created yet"; the new note starts at its own.
      return noteEditorApi(note.id).save(version === 0 ? note.version : version, changes);
    },
    finalize: async (version) => noteEditorApi((await existing()).id).finalize(version),
    load: async () => (created ? noteEditorApi(created.id).load() : { version: 0, status: 'draft' }),
  };
}

/** After the editor saved, finalized or amended `note`: the caches that show it. */
export function useNoteSaved() {
  const queryClient = useQueryClient();
  return useCallback(
    (note: Pick<Note, 'id' | 'client_id'>, saved: ServerNote, kind: 'save' | 'amendment' | 'finalize') => {
      queryClient.setQueryData(keys.notes.detail(note.id), saved);
      void queryClient.invalidateQueries({ queryKey: keys.notes.ofClient(note.client_id) });
      if (kind !== 'save') void queryClient.invalidateQueries({ queryKey: keys.notes.versions(note.id) });
    },
    [queryClient],
  );
}

/** The worklist's first half: the caller's unsigned drafts, newest session first (one page
 * of 100: a clinician with more has a bigger problem than paging). */
export function useMyDrafts(authorId: string) {
  return useQuery({
    queryKey: keys.notes.drafts(authorId),
    queryFn: () =>
      call(
        api.GET('/api/v1/sessions', { params: { query: { status: 'draft', author_id: authorId, page_size: 100 } } }),
      ),
    staleTime: 0,
  });
}

/** The worklist's second half: signed notes awaiting a co-signature the caller may give. */
export function useAwaitingCosign(enabled = true) {
  return useQuery({
    enabled,
    queryKey: keys.notes.awaitingCosign(),
    queryFn: () => call(api.GET('/api/v1/sessions/awaiting-cosign', { params: { query: { page_size: 100 } } })),
    staleTime: 0,
  });
}

/** Co-sign a trainee's signed note, attesting the current co-signature statement. */
export function useCosign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (note: Pick<Note, 'id' | 'version'>) => {
      const { cosignature } = await attestations();
      return call(
        api.POST('/api/v1/sessions/{note_id}/cosign', {
          params: { path: { note_id: note.id } },
          body: { version: note.version, attestation_version: cosignature.version },
        }),
      );
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(keys.notes.detail(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: keys.notes.awaitingCosign() });
      void queryClient.invalidateQueries({ queryKey: keys.notes.ofClient(saved.client_id) });
    },
  });
}

/** Mark or unmark a note as a psychotherapy note at `version`; on a signed note with a `reason`
 * (an amendment). The caches showing the note are updated as after an editor save. */
export function useMarkPsychotherapy(note: Pick<Note, 'id' | 'client_id'>) {
  const saved = useNoteSaved();
  return useMutation({
    mutationFn: ({ version, value, reason }: { version: number; value: boolean; reason: string }) => {
      const body = reason ? { version, psychotherapy_note: value, reason } : { version, psychotherapy_note: value };
      return call(api.PATCH('/api/v1/sessions/{note_id}', { params: { path: { note_id: note.id } }, body }));
    },
    onSuccess: (answer, { reason }) => saved(note, answer, reason ? 'amendment' : 'save'),
  });
}
