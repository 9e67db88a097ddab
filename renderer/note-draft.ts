/**
 * The note being typed on Records (its "Add a note" form) is kept in this tab's sessionStorage until it
 * is saved, so a sign-out (a server restart revokes the UI's key), a reload or a look at another page
 * does not lose it. Other screens hand words to it the same way (a correction whose Memory went away).
 */
const draftKey = (brainId: string) => `mnemo.draft-note.${brainId}`;

export function readNoteDraft(brainId: string): string {
  try {
    return window.sessionStorage.getItem(draftKey(brainId)) ?? '';
  } catch {
    return '';
  }
}

export function keepNoteDraft(brainId: string, text: string): void {
  try {
    if (text.trim()) window.sessionStorage.setItem(draftKey(brainId), text);
    else window.sessionStorage.removeItem(draftKey(brainId));
  } catch {
    // Storage refused: the note is only in the form, as before.
  }
}

/**
 * Puts TEXT into the note form's draft, after a note already being typed there (never over it).
 * False when storage refused it: the caller keeps the words on screen.
 */
export function addToNoteDraft(brainId: string, text: string): boolean {
  const before = readNoteDraft(brainId);
  const after = before.trim() ? `${before.trimEnd()}\n\n${text}` : text;
  keepNoteDraft(brainId, after);
  return readNoteDraft(brainId) === after;
}
