/**
 * Everything on screen that holds typed text the server does not have yet (the note editor),
 * so that what ends a session or leaves a page can ask first: the idle logoff and the session
 * limit try to save it, and keep the screen (asking for the password in place) when they
 * cannot, instead of signing out from under it.
 */
export interface UnsavedWork {
  /** True while something typed is not on the server. */
  hasUnsavedWork(): boolean;
  /** Try to save it now; true when nothing is left unsaved. */
  flush(): Promise<boolean>;
}

const holders = new Set<UnsavedWork>();

/** Register while mounted; returns the unregistering function. */
export function registerUnsaved(work: UnsavedWork): () => void {
  holders.add(work);
  return () => holders.delete(work);
}

export function anyUnsavedWork(): boolean {
  for (const work of holders) if (work.hasUnsavedWork()) return true;
  return false;
}

/** Save everything unsaved; true when nothing is left unsaved (never throws). */
export async function saveAllUnsaved(): Promise<boolean> {
  const pending = [...holders].filter((work) => work.hasUnsavedWork());
  await Promise.all(pending.map((work) => work.flush().catch(() => false)));
  return !anyUnsavedWork();
}
