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
  lanes: string[];
  score: number;
  /** The reranker's score when it ordered this Record (the order follows it, not `score`). */
  rerankScore: number | null;
}

export interface Dropped {
  recordId: string;
  reason: string;
}
