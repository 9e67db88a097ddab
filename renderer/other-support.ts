/**
 * The other Records a Record's Memories rest on, for the Forget-Record dialog: forgetting one Record
 * leaves a Memory another Record also cites (an assistant's "Noted: you live in Braga." beside the
 * person's "I live in Braga."), so the dialog names those Records and lets the person forget them too.
 * Pure: the dialog reads the Memories and Records, this works out what they say.
 */

/** At most this many of a Record's Memories are read (one request each); the dialog says when it stops. */
export const memoryReadCap = 20;
/** At most this many other Records are read and offered (one request each); the rest are counted. */
export const recordReadCap = 20;

/** What the dialog needs of a Memory read with the Memory API: its words and the Records it cites. */
export interface SupportedMemory {
  id: string;
  /** As the person reads it (statementLabel). */
  label: string;
  citations: readonly { record_id: string }[];
}

/** One other Record, and the Memories (of those read) it supports with the Record being forgotten. */
interface OtherRecord {
  recordId: string;
  memories: { id: string; label: string }[];
}

/**
 * The Records other than `recordId` that the read Memories cite, in the order they are first cited,
 * each with the Memories it supports. A Memory that does not cite `recordId` (its citations changed
 * since the Record was read) still counts: it is one of the Record's Memories as the Record said.
 */
export function otherSupport(recordId: string, memories: readonly SupportedMemory[]): OtherRecord[] {
  const byRecord = new Map<string, OtherRecord>();
  for (const m of memories) {
    for (const c of m.citations) {
      if (c.record_id === recordId) continue;
      let other = byRecord.get(c.record_id);
      if (!other) byRecord.set(c.record_id, (other = { recordId: c.record_id, memories: [] }));
      if (!other.memories.some((x) => x.id === m.id)) other.memories.push({ id: m.id, label: m.label });
    }
  }
  return [...byRecord.values()];
}

/**
 * What becomes of the read Memories that other Records support, when `recordId` and the `chosen`
 * Records are forgotten: `goes`, those every cited Record of which is forgotten; `stays`, those a
 * kept Record still supports (worked out again from it). A Memory resting only on `recordId` is in
 * neither: the dialog already says it goes. Only the citations read are known: a Record this key is
 * not served is not among them.
 */
export function afterForgetting(
  recordId: string,
  memories: readonly SupportedMemory[],
  chosen: ReadonlySet<string>,
): { goes: string[]; stays: string[] } {
  const goes: string[] = [];
  const stays: string[] = [];
  for (const m of memories) {
    const others = m.citations.filter((c) => c.record_id !== recordId);
    if (others.length === 0) continue;
    (others.every((c) => chosen.has(c.record_id)) ? goes : stays).push(m.label);
  }
  return { goes, stays };
}
