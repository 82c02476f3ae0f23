/**
 * Unsaved note text kept on this device, encrypted, so that a reload, a sign-out or a closed
 * tab does not lose it: it is offered back when the note is opened again.
 *
 * - The key is the signed-in user's draft key (`draft_key` of `POST /auth/login` and
 *   `GET /auth/me`): the server derives it from the practice's key and the user's id and
 *   hands it only to a live login session. It is imported as a non-extractable AES-GCM
 *   CryptoKey and kept in memory only, never in storage: after a sign-out, or with the
 *   session over, the browser cannot read its drafts until someone signs in again as that
 *   user (another user of the same browser gets another key).
 * - localStorage holds `carevault.draft.<user id>.<note id>` → `{"v":1,"iv":…,"ct":…}`: AES-GCM
 *   of the text with the user and note ids as associated data. No PHI in plain: the ids are
 *   random UUIDs, the text and its time are inside the ciphertext.
 * - A draft is removed as soon as its text is on the server, or when it is discarded.
 */
import type { SoapText } from './autosave';

export interface Draft {
  text: SoapText;
  /** The note's version the text was typed on. */
  baseVersion: number;
  /** A draft of a draft note, or an amendment of a finalized one. */
  mode: 'draft' | 'amending';
  /** When it was last typed (ms since the epoch). */
  at: number;
}

const PREFIX = 'carevault.draft.';
const FORMAT = 1;

let current: { userId: string; key: CryptoKey } | null = null;
/** Per note: the latest write or removal wins over slower earlier encryptions. */
const sequence = new Map<string, number>();

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled
  }
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function storageKey(userId: string, noteId: string): string {
  return `${PREFIX}${userId}.${noteId}`;
}

function associatedData(userId: string, noteId: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`carevault/draft/${FORMAT}|${userId}|${noteId}`);
}

/** After a sign-in (or /me): the user's draft key, or null when the server offers none. */
export async function setDraftKey(userId: string, rawKey: string | null | undefined): Promise<void> {
  if (!rawKey || typeof crypto === 'undefined' || !crypto.subtle) {
    current = null;
    return;
  }
  const key = await crypto.subtle.importKey('raw', fromBase64(rawKey), { name: 'AES-GCM' }, false, [
    'encrypt',
    'decrypt',
  ]);
  current = { userId, key };
}

/** Signed out: the key leaves memory; the drafts stay, unreadable until the next sign-in. */
export function forgetDraftKey(): void {
  current = null;
}

export function canKeepDrafts(): boolean {
  return current !== null;
}

/** Keep (replace) the draft of a note. Resolves false when it could not be kept. */
export async function keepDraft(noteId: string, draft: Draft): Promise<boolean> {
  const store = storage();
  const holder = current;
  if (!store || !holder) return false;
  const turn = (sequence.get(noteId) ?? 0) + 1;
  sequence.set(noteId, turn);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plaintext = new TextEncoder().encode(JSON.stringify(draft));
  const ciphertext = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: associatedData(holder.userId, noteId) },
    holder.key,
    plaintext,
  );
  if (sequence.get(noteId) !== turn) return true; // a later write or removal came first
  try {
    store.setItem(
      storageKey(holder.userId, noteId),
      JSON.stringify({ v: FORMAT, iv: toBase64(iv), ct: toBase64(new Uint8Array(ciphertext)) }),
    );
    return true;
  } catch {
    return false; // storage full or refused: the text is still on screen
  }
}

/** The kept draft of a note, or null (none, another user's, or unreadable). */
export async function readDraft(noteId: string): Promise<Draft | null> {
  const store = storage();
  const holder = current;
  if (!store || !holder) return null;
  const stored = store.getItem(storageKey(holder.userId, noteId));
  if (!stored) return null;
  try {
    const { v, iv, ct } = JSON.parse(stored) as { v: number; iv: string; ct: string };
    if (v !== FORMAT) return null;
    const plaintext = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: fromBase64(iv), additionalData: associatedData(holder.userId, noteId) },
      holder.key,
      fromBase64(ct),
    );
    return JSON.parse(new TextDecoder().decode(plaintext)) as Draft;
  } catch {
    return null;
  }
}

/** The text is on the server, or was discarded: remove the draft from this device. */
export function removeDraft(noteId: string): void {
  sequence.set(noteId, (sequence.get(noteId) ?? 0) + 1);
  const store = storage();
  if (!store || !current) return;
  store.removeItem(storageKey(current.userId, noteId));
}

/** The notes the signed-in user has drafts of on this device. */
export function draftNoteIds(): string[] {
  const store = storage();
  if (!store || !current) return [];
  const prefix = `${PREFIX}${current.userId}.`;
  const ids: string[] = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (key?.startsWith(prefix)) ids.push(key.slice(prefix.length));
  }
  return ids;
}
