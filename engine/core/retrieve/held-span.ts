import type { TimeIntent } from './time-expressions.ts';

/** A span of world time, [fromMs, toMs). */
export interface Span {
  fromMs: number;
  toMs: number;
}

/**
 * The question speaks of the past: "where did I live", "where was she working", "where have I lived",
 * "where I used to work". Only these words: "based" and "moved" ask about a home as often in the
 * present ("where am I based?").
 */
const pastTense =
  /(?<![\p{L}\p{N}])(?:did|didn['’]t|was|wasn['’]t|were|weren['’]t|had|been|used\s+to|lived|worked|resided|stayed|relocated|employed)(?![\p{L}\p{N}])/iu;

export function inPastTense(query: string): boolean {
  return pastTense.test(query);
}

/**
 * The question asks for a value no longer so, naming no time: "What's Lena's old job?", "my previous
 * address", "my former employer", "where I used to live". English only.
 */
const formerWords =
  /(?<![\p{L}\p{N}])(?:(?<!how\s)(?:old|previous|former|prior)(?=\s+\p{L})(?!\s+(?:is|are|was|were)(?![\p{L}\p{N}]))|used?\s+to(?![\p{L}\p{N}]))/iu;

export function asksFormer(query: string): boolean {
  return formerWords.test(query);
}

/**
 * The span whose slot values a question asks for, when it names a time in the past: the time the
 * query's words name (`intent`, as the time lane reads them in the Brain's zone), up to the read time
 * (`readMs`: `as_of`, or now) and no further; null when the question asks about the read time itself.
 * - a time that has ended before the read time ("in mid October", "in 2023", "two years ago") is
 *   asked about whatever the tense ("Who is my employer in 2023?");
 * - a time that reaches the read time ("this year", "last month", which the parser reads loosely to
 *   today) is asked about only in the past tense: "Where did I live this year?" reads the year, "Where
 *   do I live this week?" reads now, as "Where do I live?" does;
 * - a time still to come is not a past span, nor is none, unless the question asks for a former value
 *   ("my old job", asksFormer): then all the time before the read time.
 */
export function heldSpan(query: string, intent: TimeIntent | null, readMs: number): Span | null {
  // "my old job", naming no time: any time before now.
  if (intent?.fromMs === undefined || intent.toMs === undefined)
    return asksFormer(query) ? { fromMs: 0, toMs: readMs } : null;
  const { fromMs, toMs } = intent;
  if (fromMs > readMs || toMs <= fromMs) return null;
  if (toMs <= readMs) return { fromMs, toMs };
  // The read time's own instant is in the span: what was served at it held then too.
  return inPastTense(query) ? { fromMs, toMs: readMs + 1 } : null;
}
