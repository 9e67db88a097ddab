import { factTopic } from '../../contract/fact-line.ts';
import type { ChangedVersion, ChangeEvent } from '../../ports/index.ts';
import { slotValueAsSaid } from '../derive/slot-value.ts';
import { topicMet, type ChangeTopic } from '../retrieve/change-question.ts';
import type { ShownChange } from './evidence.ts';

/** One Record that changed what the Brain holds, with the changes it made: a block of its own. */
export interface RecordChanges {
  /** The Record the block quotes: the one that made the changes (or, for a bare withdrawal, the one withdrawn). */
  recordId: string;
  /** The version each change made or withdrew, in `shown`'s order (the Trace names them). */
  memoryIds: string[];
  shown: ShownChange[];
}

/** A change of one lineage as read from the events, before it is put in a Record's block. */
interface Found {
  recordId: string;
  memoryId: string;
  occurredMs: number;
  shown: ShownChange;
  /** Words of what changed, the question's own words are looked for in (changeTopicTerms). */
  words: string;
}

/**
 * What changed in a span, from the Records that made it (ContextReads.changes), as a change question
 * shows it, a block per Record: each next version of a lineage as its value before and after ("Lea
 * Horvat's dentist": "Dr. Perić" → "Dr. Babić"), a correction the same way but said so, a withdrawal
 * with the value withdrawn, and a slot's first value said in the span as new, where its lineage did
 * not change there too. The values are the slot's as said (slotValueAsSaid), else the statements whole
 * (a plan moved: the booking, then the move). Left out: a version beside another still current (two
 * sources disagree: a conflict, which the Context lists as one), one that says what the version before
 * it said, and a first value a later correction says never held. A value before that no Record the
 * request may see supports is not shown, only said to be there (`fromHidden`). With `topic` words, only
 * the changes whose statements or subject hold the most of them (none where none holds one). Changes first, then first values, each
 * oldest first; a Record that made several is one block, at its first.
 */
export function recordChanges(
  read: { events: readonly ChangeEvent[]; versions: readonly ChangedVersion[] },
  topic: readonly ChangeTopic[] = [],
): RecordChanges[] {
  const byId = new Map(read.versions.map((v) => [v.id, v]));
  const lineages = new Map<string, ChangedVersion[]>();
  for (const v of read.versions) lineages.set(v.lineage, [...(lineages.get(v.lineage) ?? []), v]);
  const corrected = new Set(read.versions.flatMap((v) => (v.corrects === null ? [] : [v.corrects])));
  // A lineage that changed in the span shows its change, not its first value said there too.
  const changedLineages = new Set(
    read.events.flatMap((e) => {
      const v = byId.get(e.memoryId);
      return v !== undefined && (e.how === 'retracted' || v.version > 1) ? [v.lineage] : [];
    }),
  );
  const changes: Found[] = [];
  const firsts: Found[] = [];
  for (const e of read.events) {
    const v = byId.get(e.memoryId);
    if (v === undefined || v.pending) continue;
    const on = e.occurredAt.slice(0, 10);
    if (e.how === 'retracted') {
      const recordId = e.evidence ? e.recordId : v.recordId;
      if (recordId === null) continue;
      changes.push({
        recordId,
        memoryId: v.id,
        occurredMs: e.occurredMs,
        shown: {
          how: 'withdrawn',
          what: whatOf(v),
          from: v.recordId === null ? null : valueOf(v),
          to: null,
          on,
        },
        words: `${v.subject}\n${v.statement}`,
      });
      continue;
    }
    const versions = lineages.get(v.lineage) ?? [];
    const before = v.version > 1 ? versionBefore(v, versions, corrected) : undefined;
    if (before === undefined) {
      if (v.slot === null || changedLineages.has(v.lineage) || corrected.has(v.id)) continue;
      firsts.push({
        recordId: e.recordId,
        memoryId: v.id,
        occurredMs: e.occurredMs,
        shown: { how: 'new', what: whatOf(v), from: null, to: valueOf(v), on },
        words: `${v.subject}\n${v.statement}`,
      });
      continue;
    }
    // Not replaced, only contested (both stand), or said again in the same words: no change.
    if (before.status === 'active' || before.norm === v.norm) continue;
    const hidden = before.recordId === null;
    changes.push({
      recordId: e.recordId,
      memoryId: v.id,
      occurredMs: e.occurredMs,
      shown: {
        how: v.cause === 'correction' ? 'corrected' : 'changed',
        what: whatOf(v) ?? whatOf(before),
        from: hidden ? null : valueOf(before),
        ...(hidden ? { fromHidden: true } : {}),
        to: valueOf(v),
        on,
      },
      words: `${v.subject}\n${v.statement}${hidden ? '' : `\n${before.statement}`}`,
    });
  }
  // Of what the question names, those saying the most of its words: "Marko's birthday" is the
  // birthday, not the trip with Marko too.
  const said = (f: Found) => topic.filter((t) => topicMet(f.words, t)).length;
  const most = Math.max(0, ...changes.map(said), ...firsts.map(said));
  const kept = (f: Found) => topic.length === 0 || (most > 0 && said(f) === most);
  const byTime = (a: Found, b: Found) => a.occurredMs - b.occurredMs;
  const out = new Map<string, RecordChanges>();
  for (const f of [...changes.sort(byTime), ...firsts.sort(byTime)].filter(kept)) {
    const block = out.get(f.recordId) ?? { recordId: f.recordId, memoryIds: [], shown: [] };
    if (block.memoryIds.includes(f.memoryId)) continue;
    block.memoryIds.push(f.memoryId);
    block.shown.push(f.shown);
    out.set(f.recordId, block);
  }
  return [...out.values()];
}

/**
 * The version a next version replaced: the one it corrects, else the latest written before it that
 * held (not withdrawn, not pending, not itself corrected: a corrected value never held).
 */
function versionBefore(
  v: ChangedVersion,
  lineage: readonly ChangedVersion[],
  corrected: ReadonlySet<string>,
): ChangedVersion | undefined {
  if (v.corrects !== null) return lineage.find((x) => x.id === v.corrects);
  return lineage
    .filter((x) => x.version < v.version && x.status !== 'retracted' && !x.pending && !corrected.has(x.id))
    .at(-1);
}

/**
 * What a slot's value is of, as a fact's sentence says it (factTopic, shared with the UI): "Marko's
 * birthday", "Ana lives in", "Ana's date of birth" for `date_of_birth`; null for a statement of no slot.
 */
function whatOf(v: ChangedVersion): string | null {
  if (v.predicate === null || slotValueAsSaid(v) === null) return null;
  return factTopic(v.subject, v.predicate);
}

/** A version's value as said where it is a slot's, else its statement whole. */
function valueOf(v: ChangedVersion): string {
  return slotValueAsSaid(v) ?? v.statement;
}
