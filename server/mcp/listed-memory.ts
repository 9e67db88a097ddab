import type { Memory, MemoryPage, MemoryRevision, Owner, Profile } from '../../engine/contract/index.ts';
import { pairSafe } from './text-window.ts';

/** How much of a statement and of a quote a page of list_memories shows; get_memory shows them whole. */
export const listedChars = { statement: 300, quote: 200 } as const;

/** The page size of list_memories, list_records and get_profile when none is given: a page is read whole into a model's context. */
export const listedPageSize = 20;

/**
 * A Memory as list_memories shows it by default: what a model needs to choose one (and to call
 * get_memory or get_record on it), not every citation whole. `object` is dropped; `version` stays,
 * so a delta read tells a revision from a new Memory (get_memory has the revisions).
 */
export interface ListedMemory {
  id: string;
  /** Cut at listedChars.statement, ending in "…", with statement_cut: true. */
  statement: string;
  statement_cut?: true;
  subject: string;
  predicate: string | null;
  slot: string | null;
  owner: Owner;
  status: Memory['status'];
  version: number;
  valid_from: string;
  valid_to: string | null;
  citation_count: number;
  /**
   * Its quote only where it says more than the statement (most quote a sentence as said), cut at
   * listedChars.quote with quote_cut: true.
   */
  first_citation?: { record_id: string; quote?: string; quote_cut?: true };
}

/** `text` whole when it fits in `chars`, else its start and "…". */
function shortened(text: string, chars: number): { text: string; cut: boolean } {
  if (text.length <= chars) return { text, cut: false };
  return { text: `${text.slice(0, pairSafe(text, chars))}…`, cut: true };
}

export function listedMemory(m: Memory): ListedMemory {
  const statement = shortened(m.statement, listedChars.statement);
  // The contract gives every Memory a citation; a newer server's page is shown as it comes.
  const first = m.citations[0];
  const quote =
    first === undefined || first.quote === m.statement ? null : shortened(first.quote, listedChars.quote);
  return {
    id: m.id,
    statement: statement.text,
    ...(statement.cut ? { statement_cut: true as const } : {}),
    subject: m.subject,
    predicate: m.predicate,
    slot: m.slot,
    owner: m.owner,
    status: m.status,
    version: m.version,
    valid_from: m.valid_from,
    valid_to: m.valid_to,
    citation_count: m.citations.length,
    ...(first
      ? {
          first_citation: {
            record_id: first.record_id,
            ...(quote === null
              ? {}
              : { quote: quote.text, ...(quote.cut ? { quote_cut: true as const } : {}) }),
          },
        }
      : {}),
  };
}

/** A page of Memories with each in its listed form; cursors, watermark and removals as they came. */
export const listedPage = (page: MemoryPage) => ({ ...page, data: page.data.map(listedMemory) });

/** A version of a Memory's slot as get_memory lists it. */
export type ShownRevision = Omit<MemoryRevision, 'statement'> & { statement?: string; statement_cut?: true };

/**
 * A revision as get_memory lists it: its statement only where it is not the Memory's own (the Memory
 * itself is one of its revisions, and a version re-derived says the same), cut as list_memories cuts
 * one (get_memory on the revision's id gives it whole). A Memory of a long message repeated its
 * statement whole in its revisions, and each older version its own.
 */
export function shownRevision(r: MemoryRevision, statement: string): ShownRevision {
  const { id, version, statement: said, ...rest } = r;
  if (said === statement) return { id, version, ...rest };
  const shown = shortened(said, listedChars.statement);
  return {
    id,
    version,
    statement: shown.text,
    ...(shown.cut ? { statement_cut: true as const } : {}),
    ...rest,
  };
}

/** A citation of a get_profile line: its quote only where it says more than the line, cut as listed. */
export type ShownProfileCitation = { record_id: string; quote?: string; quote_cut?: true };

/**
 * A page of the Profile as get_profile gives it: each line's citations as list_memories gives a
 * Memory's first one, a quote left out where it is the line's statement word for word (a fact's line,
 * a short message's) and cut at listedChars.quote otherwise. /v1's lines carry each quote whole: a
 * card of 20 lines said most statements twice, and one citing a long message gave the message.
 */
export function shownProfile(p: Profile) {
  return {
    ...p,
    lines: p.lines.map((l) => ({
      ...l,
      citations: l.citations.map((c): ShownProfileCitation => {
        if (c.quote === l.statement) return { record_id: c.record_id };
        const quote = shortened(c.quote, listedChars.quote);
        return {
          record_id: c.record_id,
          quote: quote.text,
          ...(quote.cut ? { quote_cut: true as const } : {}),
        };
      }),
    })),
  };
}
