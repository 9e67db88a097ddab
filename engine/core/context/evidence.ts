/** A passage of one Record chosen as evidence for a Context, with what it supports and why it ranks. */
export interface EvidencePassage {
  recordId: string;
  /** Exact substring of the Record's text: the quote every cited Record gets (Quote.core). */
  passage: string;
  /** Contains passage: the quote when the budget has room to spare (Quote.wide). */
  wide: string;
  kind: string;
  title: string | null;
  speaker: string | null;
  /** A message's thread (its conversation), else null. */
  thread: string | null;
  /** A message that asks and states nothing ("What city do you live in?"): it supports no Memory. */
  asksOnly: boolean;
  source: string | null;
  occurredAt: string;
  /** Who may see the Record beyond this device (the spec's visibility): the prompt marks all but shareable. */
  visibility: 'shareable' | 'redacted_summary' | 'local_only';
  /** Memories served at the read time that this Record supports. */
  memoryIds: string[];
  /**
   * Every Memory it supports is superseded, yet it says more the query asks about (select-evidence.ts):
   * the prompt marks it, so what it states is read as what held then, not now. Absent: false.
   */
  superseded?: boolean;
  /**
   * When the value it states held, for a query that names a time in the past: a slot value no longer
   * so (to its end), or one begun inside that time (toMs null: still so). The prompt says so, so the
   * value of then is read as then's and the current one as begun since. Absent: not such a value.
   */
  held?: { fromMs: number; toMs: number | null } | undefined;
  /**
   * A mail's subject (the Subject line of the importer's header block, which the quotes leave out): the
   * prompt shows it in the block's header. Absent: not a mail, or a mail without one.
   */
  subject?: string;
  /**
   * The quote is someone else's words that this message quotes (a mail's quoted reply, a forwarded
   * mail), not its speaker's: the prompt marks it. Absent: false.
   */
  quoted?: boolean;
  /**
   * A mail sent to a list of subscribers (a newsletter; the importer's "Precedence: bulk" line, which
   * the quote leaves out with the other header lines): the prompt marks it. Absent: false.
   */
  bulk?: boolean;
  /**
   * What this Record changed in the span a change question asks about ("What changed this week?"):
   * the prompt shows each change in the block's header. Absent: none, or no such question.
   */
  changes?: ShownChange[];
  lanes: string[];
  score: number;
  /** The reranker's score when it ordered this Record (the order follows it, not `score`). */
  rerankScore: number | null;
}

/**
 * One change a Record made to what the Brain holds, as a block's header shows it (core/context/changes.ts):
 * a value replaced (`changed`), corrected (said never to have held), withdrawn, or a slot's first
 * (`new`). Values and `what` are words of Records, quoted in the header.
 */
export interface ShownChange {
  how: 'changed' | 'corrected' | 'withdrawn' | 'new';
  /** What the value is of ("Marko's birthday", "Ana lives in"); null: a statement of no slot, shown whole. */
  what: string | null;
  /** The value before (withdrawn: the one withdrawn); null: none (`new`), or not shown (`fromHidden`). */
  from: string | null;
  /** A value was there before, but no Record this request may see says it. Absent: false. */
  fromHidden?: boolean;
  /** The value after; null when withdrawn. */
  to: string | null;
  /** The day of the Record that made the change, as its date is written (YYYY-MM-DD). */
  on: string;
}

export interface Dropped {
  recordId: string;
  reason: string;
}
