import { localInputToOffsetIso } from './format.ts';

/**
 * The correction being written on a Memory's page (its Correct form), kept in this tab's
 * sessionStorage per Brain and Memory until it is saved or discarded, as a note on Records is
 * (note-draft.ts): a reload, a look at another page, or a sign-in that ended (a server restart revokes
 * the UI's key; api/session.ts keeps drafts then) does not lose it. Signing out on purpose clears it
 * with the rest of the tab's storage.
 */
export interface CorrectionDraft {
  /** What the person wrote in "What is actually true", where it is not the Memory's own words. */
  statement?: string;
  /** "Why", where written. */
  reason?: string;
  /** "It is simply wrong: withdraw it", where ticked. */
  withdraw?: true;
  /** "Holds from", where a day was chosen: the date input's value (YYYY-MM-DD). */
  holdsFrom?: string;
}

/** What the form holds. */
export interface CorrectionForm {
  statement: string;
  reason: string;
  withdraw: boolean;
  /** The date input's value, '' for none. */
  holdsFrom: string;
}

/** A date input's value: a day of the calendar, as the input gives it. */
const isDay = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v);

/**
 * The day chosen under "Holds from" as the correction's valid_from: its start where the person is, as
 * RFC 3339 with this browser's offset then (a day's start east of Greenwich is the evening before in
 * UTC, and the engine reads the instant). Undefined for none, or for what is not a day.
 */
export function holdsFromInstant(day: string): string | undefined {
  if (!isDay(day)) return undefined;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const start = new Date(y, m - 1, d);
  // Date rolls an impossible day over (February 30 is March 2): not the day chosen.
  if (start.getFullYear() !== y || start.getMonth() !== m - 1 || start.getDate() !== d) return undefined;
  // Where the clocks skip midnight, the day starts at the hour they skip to.
  return localInputToOffsetIso(`${day}T00:00`);
}

/** The tab's sessionStorage, through globalThis: the pure functions here are also tested under Node. */
const tabStorage = () =>
  (
    globalThis as unknown as {
      sessionStorage: {
        getItem(key: string): string | null;
        setItem(key: string, value: string): void;
        removeItem(key: string): void;
      };
    }
  ).sessionStorage;

const prefix = 'mnemo.draft-correction.';
// A Brain's id (a Slug) holds no "/": the key names one Brain's one Memory.
const draftKey = (brainId: string, memoryId: string) => `${prefix}${brainId}/${memoryId}`;

/**
 * What of the form there is to keep: null when it says nothing the Memory does not (its words as shown
 * or as stored, `original`, no reason, not withdrawn), so a form put back as it was keeps nothing.
 */
export function correctionDraft(form: CorrectionForm, original: readonly string[]): CorrectionDraft | null {
  const written = form.statement.trim();
  const draft: CorrectionDraft = {
    ...(written && !original.includes(written) ? { statement: form.statement } : {}),
    ...(form.reason.trim() ? { reason: form.reason } : {}),
    ...(form.withdraw ? { withdraw: true as const } : {}),
    ...(form.holdsFrom ? { holdsFrom: form.holdsFrom } : {}),
  };
  return Object.keys(draft).length === 0 ? null : draft;
}

/** The form as the draft left it, over the Memory's words as the page shows them. */
export function formFromDraft(draft: CorrectionDraft | null, shown: string): CorrectionForm {
  return {
    statement: draft?.statement ?? shown,
    reason: draft?.reason ?? '',
    withdraw: draft?.withdraw === true,
    holdsFrom: draft?.holdsFrom ?? '',
  };
}

/**
 * The person's own words in a draft, to show (or take to a note) when the form went away: what they
 * wrote as true (and from which day, where they chose one), and why. Null when they wrote neither (a
 * withdrawal ticked, no reason).
 */
export function draftWords(draft: CorrectionDraft | null): string | null {
  if (draft === null) return null;
  const lines = [
    ...(draft.statement?.trim() ? [draft.statement.trim()] : []),
    ...(draft.holdsFrom && !draft.withdraw ? [`From: ${draft.holdsFrom}`] : []),
    ...(draft.reason?.trim() ? [`Why: ${draft.reason.trim()}`] : []),
  ];
  return lines.length ? lines.join('\n') : null;
}

/** A stored draft read back: only the fields of a draft, of the right types. */
export function parseCorrectionDraft(raw: string | null): CorrectionDraft | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Record<string, unknown> | null;
    if (typeof v !== 'object' || v === null) return null;
    const draft: CorrectionDraft = {
      ...(typeof v.statement === 'string' ? { statement: v.statement } : {}),
      ...(typeof v.reason === 'string' ? { reason: v.reason } : {}),
      ...(v.withdraw === true ? { withdraw: true as const } : {}),
      ...(isDay(v.holdsFrom) ? { holdsFrom: v.holdsFrom } : {}),
    };
    return Object.keys(draft).length === 0 ? null : draft;
  } catch {
    return null;
  }
}

export function readCorrectionDraft(brainId: string, memoryId: string): CorrectionDraft | null {
  try {
    return parseCorrectionDraft(tabStorage().getItem(draftKey(brainId, memoryId)));
  } catch {
    return null;
  }
}

/** Keeps DRAFT for the Memory, or forgets what was kept (null: saved, discarded, or nothing to keep). */
export function keepCorrectionDraft(brainId: string, memoryId: string, draft: CorrectionDraft | null): void {
  try {
    if (draft === null) tabStorage().removeItem(draftKey(brainId, memoryId));
    else tabStorage().setItem(draftKey(brainId, memoryId), JSON.stringify(draft));
  } catch {
    // Storage refused: the correction is only in the page, as before.
  }
}
