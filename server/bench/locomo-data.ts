import { readFileSync } from 'node:fs';
import { months } from '../../engine/index.ts';

/** One turn of a LoCoMo conversation, ready to be written as a `message` Record. */
export interface LocomoTurn {
  diaId: string;
  speaker: string;
  /** The turn's text with any shared image's caption appended as ` [shares image: <caption>]`. */
  text: string;
  session: number;
  /** RFC 3339, from the session's date line. */
  occurredAt: string;
}

export interface LocomoQuestion {
  question: string;
  category: number;
  /** Normalised evidence ids that name a turn of this conversation (never empty). */
  evidence: string[];
}

export interface LocomoConversation {
  sampleId: string;
  speakers: [string, string];
  turns: LocomoTurn[];
  questions: LocomoQuestion[];
}

/** Budget large enough that the top 25 turns (LoCoMo turns are short) always fit. */
export const locomoBudgetTokens = 12_000;

/** The Brain of one conversation (a slug). */
export const locomoBrainId = (conv: LocomoConversation) =>
  `locomo-${conv.sampleId}`.replace(/[^A-Za-z0-9._-]/g, '-');

/**
 * How the benchmark stores turns (`--turns-as`): `messages` (the default: each a message with its speaker, in its
 * session's thread) or `documents` (each a dated note "Speaker: text", no speaker field and no thread),
 * which measures retrieval over a Brain of notes, where the entity lane and thread features are silent.
 */
export type LocomoTurnForm = 'messages' | 'documents';
export const locomoTurnForms: readonly LocomoTurnForm[] = ['messages', 'documents'];

/** A turn as the Record the benchmark writes, at its session's date. */
export const locomoTurnRecord = (t: LocomoTurn, form: LocomoTurnForm = 'messages') => ({
  content:
    form === 'documents'
      ? { kind: 'document' as const, text: `${t.speaker}: ${t.text}` }
      : { kind: 'message' as const, text: t.text, speaker: t.speaker, thread: `session_${t.session}` },
  occurred_at: t.occurredAt,
});

/**
 * Parses LoCoMo's session dates (`h:mm a 'on' d MMMM, yyyy`, e.g. "1:56 pm on 8 May, 2023") as UTC;
 * the benchmark has no time zones, and UTC keeps the calendar day the same.
 */
export function parseSessionDate(s: string): string {
  const m = /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$/i.exec(s);
  if (!m) throw new Error(`unreadable session date: ${JSON.stringify(s)}`);
  const [, hh, mm, ampm, day, monthName, year] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const month = months.indexOf(monthName.toLowerCase());
  if (month < 0) throw new Error(`unreadable month in session date: ${JSON.stringify(s)}`);
  let hour = Number(hh) % 12;
  if (ampm.toLowerCase() === 'pm') hour += 12;
  return new Date(Date.UTC(Number(year), month, Number(day), hour, Number(mm))).toISOString();
}

/**
 * Normalises evidence ids per the data README: split on `[;,\s]+`, match `D:?(\d+):0*(\d+)`, rebuild as
 * `D<int>:<int>`, drop ids that name no turn.
 */
export function normaliseEvidence(raw: unknown, known: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  const items = Array.isArray(raw) ? raw : [];
  for (const item of items) {
    for (const part of String(item).split(/[;,\s]+/)) {
      const m = /D:?(\d+):0*(\d+)/.exec(part);
      if (!m) continue;
      const id = `D${Number(m[1])}:${Number(m[2])}`;
      if (known.has(id)) out.add(id);
    }
  }
  return [...out];
}

interface RawTurn {
  speaker: string;
  dia_id: string;
  text?: unknown;
  blip_caption?: string;
}

/** Reads a file in LoCoMo's format (a JSON list of samples). Any file in that format works. */
export function loadLocomo(path: string): LocomoConversation[] {
  const data = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  if (!Array.isArray(data)) throw new Error(`${path}: expected a JSON list of samples`);
  return data.map((sample: Record<string, unknown>, i) => {
    const conv = sample['conversation'] as Record<string, unknown>;
    const sampleId = String(sample['sample_id'] ?? `sample-${i}`);
    const sessions = Object.keys(conv)
      .map((k) => /^session_(\d+)$/.exec(k))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    const turns: LocomoTurn[] = [];
    for (const n of sessions) {
      const date = conv[`session_${n}_date_time`];
      if (typeof date !== 'string') throw new Error(`${sampleId}: session_${n} has no date`);
      const occurredAt = parseSessionDate(date);
      const raw = conv[`session_${n}`] as RawTurn[];
      raw.forEach((t, j) => {
        const caption = t.blip_caption ? ` [shares image: ${t.blip_caption}]` : '';
        const text = `${typeof t.text === 'string' ? t.text : ''}${caption}`;
        // A turn with nothing in it cannot be a Record (content text must not be empty); evidence naming
        // it is then dropped like any id that names no turn, instead of the whole run failing on a write.
        if (text.trim() === '') return;
        // Turns a second apart keep their order in time-sorted views without moving the calendar day.
        const at = new Date(Date.parse(occurredAt) + j * 1000).toISOString();
        const m = /D:?(\d+):0*(\d+)/.exec(t.dia_id);
        const diaId = m ? `D${Number(m[1])}:${Number(m[2])}` : t.dia_id;
        turns.push({ diaId, speaker: t.speaker, text, session: n, occurredAt: at });
      });
    }
    const known = new Set(turns.map((t) => t.diaId));
    const qa = (sample['qa'] ?? []) as Array<Record<string, unknown>>;
    const questions = qa
      .map((q) => ({
        question: String(q['question'] ?? ''),
        category: Number(q['category']),
        evidence: normaliseEvidence(q['evidence'], known),
      }))
      .filter((q) => q.evidence.length > 0 && q.question.trim().length > 0);
    return {
      sampleId,
      speakers: [String(conv['speaker_a'] ?? ''), String(conv['speaker_b'] ?? '')],
      turns,
      questions,
    };
  });
}
