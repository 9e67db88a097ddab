import type { TypedContent } from '../contract/index.ts';
import type { Claim, DerivableRecord, DeriveContext, Deriver } from '../core/derive/deriver.ts';
import { sentences } from '../core/derive/split-text.ts';
import { citableClaims } from '../core/derive/citable-claims.ts';
import { agentSpeaker } from '../core/derive/agent-words.ts';
import { foldName, resolveOwner } from '../core/derive/resolve-owner.ts';
import {
  clashesWith,
  heOrSheClaims,
  heOrSheOf,
  pronounFits,
  selfNamedIn,
  slotsSaidOf,
} from '../core/derive/rule-deriver.ts';
import { namesKind, saidInsteadOf, valueKind } from '../core/derive/said-instead.ts';
import { statementMended } from '../core/derive/statement-mend.ts';
import { planCue, saysIdea } from '../core/derive/idea-dropped.ts';
import { askedOf, lastQuestion, questionClause, saysYes } from '../core/derive/answers.ts';
import { slotKey } from '../core/derive/slot-key.ts';
import { saidBy, valueStatement } from '../core/derive/slot-statement.ts';
import { sameSlotValue, slotValueAsSaid } from '../core/derive/slot-value.ts';
import { statementKey } from '../core/derive/statement-key.ts';
import type { BrainUnitOfWork, RecordRow } from '../ports/index.ts';
import { deriveContext } from './derive-context.ts';
import { deriverInput } from './deriver-input.ts';
import { settleLineage } from './settle-lineage.ts';

/** How long after a message a reply may still read it: a slip is mended, a question answered, at once. */
const replyReachMs = 30 * 60_000;

/** Where a Record stands in its thread. */
type At = Pick<RecordRow, 'n' | 'occurred_ms'>;
type Reads = Pick<BrainUnitOfWork, 'records' | 'self' | 'speakersFirstNamed' | 'memories'>;

/** How deep a mend of a mend is read ("march 4", "wait no, march 14", "ugh no, march 15"). */
const mendDepth = 3;

const marked = (c: Claim) =>
  c.saidInstead !== undefined ||
  c.answers !== undefined ||
  c.inReply === true ||
  c.heOrShe === true ||
  c.dropsIdea !== undefined;
const unmarked = ({
  saidInstead: _mend,
  answers: _answer,
  inReply: _reply,
  heOrShe: _pronoun,
  dropsIdea: _idea,
  ...statement
}: Claim): Claim => statement;

/**
 * A Record's claims with those only the thread's messages just before (said within half an hour) can
 * say the slot of made the claims of that slot:
 * - a value said in place of another (`saidInstead`: "wait no, it's march 14") the one the speaker's
 *   message before held (an agent's reply between them aside), or an agent's read-back of the person's
 *   slot ("Got it, you work at Globant." then "globex not globant lol"), as derived now from that
 *   Record, its own replies read (a mend of a mend);
 * - a bare value (`answers`: "Braga") what another speaker's question just before asked of this one
 *   ("Where are you based?"): the answer said in full ("I live in Braga") as the rules read it; so is a
 *   mend of the value a question named ("Do you still live in Porto?" then "no, Braga");
 * - a short reply (`inReply`), or an answer that holds no slot, the exchange it ends ("When's your
 *   birthday? — probably early october") where another speaker's message just before ends with one
 *   question;
 * - a statement opening with "she" or "he" (`heOrShe`) the person the speaker's message before names;
 * - a date, a time or a number said in place of one in the speaker's sentence of no slot just before
 *   (statement-mend.ts) that sentence mended, and an idea dropped by its words (`dropsIdea`) a
 *   withdrawal of the speaker's statement of it (droppedIdea).
 * Where none of these holds, the claim stays the statement it is. Every reader of a Record's claims reads
 * them so (as held endings), so a Memory it holds compares with what it says.
 */
export async function withReplies(
  uow: Reads,
  deriver: Deriver,
  at: At,
  record: DerivableRecord,
  claims: readonly Claim[],
  depth = 0,
): Promise<Claim[]> {
  if (!claims.some(marked)) return [...claims];
  const content = record.content;
  if (content.kind !== 'message' || content.thread === undefined) return claims.map(unmarked);
  const rows = await uow.records.threadBefore(content.thread, at, {
    sinceMs: at.occurred_ms - replyReachMs,
    limit: 2,
  });
  // Each message before as the readings below need it: parsed, and split into sentences, once.
  const before = rows.flatMap((row): Before[] => {
    const input = deriverInput(row);
    if (input.content.kind !== 'message') return [];
    return [{ row, input, said: input.content, sentences: sentences(input.text).map((x) => x.value.trim()) }];
  });
  const out: Claim[] = [];
  for (const c of claims) {
    const value = c.saidInstead?.value ?? c.answers ?? (c.inReply ? c.quote : undefined);
    const read =
      value === undefined
        ? null
        : ((c.saidInstead !== undefined ? await mended(uow, deriver, c, before, content, depth) : null) ??
          (await answered(uow, deriver, c, value, before[0], record, content)));
    const plain =
      read ?? (c.saidInstead === undefined ? exchange(unmarked(c), before[0], content) : unmarked(c));
    const dropping =
      c.dropsIdea === undefined
        ? plain
        : await droppedIdea(uow, deriver, c.dropsIdea, plain, before, content);
    out.push(...(c.heOrShe ? await theirs(uow, dropping, before[0], content) : [dropping]));
  }
  return out;
}

type Message = Extract<TypedContent, { kind: 'message' }>;
type Before = { row: RecordRow; input: DerivableRecord; said: Message; sentences: readonly string[] };

const sameSpeaker = (a: Message, b: Message) => foldName(a.speaker ?? '') === foldName(b.speaker ?? '');
const asksSomething = (b: Before) => b.sentences.some((x) => x.endsWith('?'));

/**
 * The mend's claim, of the slot a message before held: an agent's read-back just before it, else the
 * speaker's own message (just before, or before an agent's reply). Only where the message before, its
 * old value put back to the new one, still holds the slot with it ("I work at Sonae." as "I work at
 * Globex."): the rules' own readings say what may be a home, a job or a date.
 */
async function mended(
  uow: Reads,
  deriver: Deriver,
  c: Claim,
  before: readonly Before[],
  content: Message,
  depth: number,
): Promise<Claim | null> {
  const [first, second] = before;
  if (first === undefined) return null;
  const candidates: Array<{ b: Before; by: 'same' | 'agent' }> = [];
  if (sameSpeaker(first.said, content)) candidates.push({ b: first, by: 'same' });
  else if (agentSpeaker(first.said.speaker, first.input.sourceName)) {
    candidates.push({ b: first, by: 'agent' });
    // Her own words before the agent's reply, unless that reply asks something or names a value of the
    // kind ("Noted! Want me to remind you on November 1?" then "no, October 30" answers the agent).
    const kind = valueKind(c.saidInstead!.value);
    if (
      second !== undefined &&
      sameSpeaker(second.said, content) &&
      !asksSomething(first) &&
      !namesKind(first.input.text, kind)
    )
      candidates.push({ b: second, by: 'same' });
  }
  for (const { b, by } of candidates) {
    const ctx = await deriveContext(uow, [b.said]);
    const own = citableClaims(deriver, b.input, ctx);
    const claims =
      depth + 1 < mendDepth ? await withReplies(uow, deriver, b.row, b.input, own, depth + 1) : own;
    const found = saidInsteadOf(c, {
      id: b.row.id,
      claims,
      by,
      asks: by === 'agent' && asksSomething(b),
    });
    if (found !== null && stillHolds(deriver, b, ctx, found.mends, found.claim)) return found.claim;
    // A trip's dates or a meeting's hour, in the speaker's own sentence of no slot.
    const statement =
      by === 'same' && found === null
        ? statementMended({ ...c, saidInstead: c.saidInstead! }, { id: b.row.id, claims })
        : null;
    if (statement !== null) return statement;
  }
  return null;
}

/** Whether the mended claim's words, its old value put back to the new one, hold the slot with it. */
function stillHolds(deriver: Deriver, b: Before, ctx: DeriveContext, mends: Claim, meant: Claim): boolean {
  const [old, now] = [slotValueAsSaid(mends), slotValueAsSaid(meant)];
  const at = old === null ? -1 : mends.quote.toLowerCase().indexOf(old.toLowerCase());
  if (old === null || now === null || at < 0) return false;
  const text = mends.quote.slice(0, at) + now + mends.quote.slice(at + old.length);
  const again = citableClaims(deriver, { ...b.input, text, content: { ...b.said, text } }, ctx);
  // A reply itself ("wait no, march 14", "Braga" to a question) was read so when it was derived.
  if (again.some(marked)) return true;
  const slot = slotKey(meant.subject, meant.predicate!, meant.owner);
  return again.some(
    (x) =>
      x.predicate !== null && slotKey(x.subject, x.predicate, x.owner) === slot && sameSlotValue(x, meant),
  );
}

/**
 * A sentence that drops an idea ("Actually, scratch the cat idea"), replacing the same speaker's
 * statements of no slot in the message just before (or before another's reply) that say it ("I think
 * we'll adopt a cat this spring."): withdrawn by this Record as a slip is (withdrawSlips). Nothing where
 * no such statement is there.
 */
async function droppedIdea(
  uow: Reads,
  deriver: Deriver,
  idea: string,
  c: Claim,
  before: readonly Before[],
  content: Message,
): Promise<Claim> {
  for (const b of before) {
    // Past another's reply ("Love that idea!") to the speaker's own words.
    if (!sameSpeaker(b.said, content)) continue;
    const ctx = await deriveContext(uow, [b.said]);
    // Only a plan or an idea of hers: "Our cat Mimi is sick again." or a trip gone stays.
    const said = citableClaims(deriver, b.input, ctx).filter(
      (x) =>
        x.predicate === null &&
        x.subject === c.subject &&
        x.owner.state === c.owner.state &&
        planCue.test(x.statement) &&
        saysIdea(x.statement, idea),
    );
    if (said.length === 0) return c;
    return { ...c, replaces: { recordId: b.row.id, value: idea, statements: said.map((x) => x.statement) } };
  }
  return c;
}

/**
 * A statement opening with "she" or "he" as that person's, where the same speaker's message just before
 * ends naming them ("My sister Inês lives in Madrid." then "she's a nurse"): not the speaker's own.
 */
async function theirs(uow: Reads, c: Claim, before: Before | undefined, content: Message): Promise<Claim[]> {
  if (before === undefined || !sameSpeaker(before.said, content)) return [c];
  const last = before.sentences.at(-1);
  const self = await uow.self();
  const about =
    last === undefined
      ? null
      : (heOrSheOf(last) ?? selfNamedIn(last, c.owner.state === 'other' ? self : null));
  const who = about !== null && pronounFits(c.quote, before.sentences, about) ? about : null;
  if (who === null) return [c];
  const owner = resolveOwner(who, self);
  // "Ana got a new job." then "she works at Google now" in Rui's words: her slot as he says it, unless
  // it changes what he just said of her.
  if (owner.state === 'self' && c.owner.state === 'other') {
    const hers = heOrSheClaims(c.quote, who, owner, c.owner).filter(
      (x) => x.predicate !== null && saidBy(x) !== null,
    );
    const said = slotsSaidOf(last!, owner, c.owner);
    return hers.length === 0 || hers.some((x) => clashesWith(x, said)) ? [c] : hers;
  }
  if (owner.state !== 'other') return [c];
  // "Rui is a doctor." then "she's a nurse": not Rui, whose job was just said otherwise.
  const read = heOrSheClaims(c.quote, who, owner);
  const said = slotsSaidOf(last!, owner);
  const clash = read.some((x) => x.predicate !== null && clashesWith(x, said));
  return clash ? [{ ...c, subject: owner.entity ?? who, owner }] : read;
}

/**
 * A short reply's statement as the exchange it ends ("What's Pimenta like? — very fluffy"), where the
 * message before is another speaker's and ends with one question; quoting the reply as written.
 */
function exchange(c: Claim, before: Before | undefined, content: Message): Claim {
  if (before === undefined || sameSpeaker(before.said, content)) return c;
  const question = lastQuestion(before.sentences);
  // The asking clause alone: what the asker said of themselves in the same sentence is theirs, and the
  // exchange is the replier's Memory.
  return question === null ? c : { ...c, statement: `${questionClause(question)} — ${c.statement}` };
}

/**
 * The answer's claim: the answer said in full as the question before it asked ("Braga" to "Where are
 * you based?" is "I live in Braga"), derived as this Record, where that holds one slot; quoting the
 * answer as written, and saying the slot's value in the engine's words (no sentence was said so).
 */
async function answered(
  uow: Reads,
  deriver: Deriver,
  c: Claim,
  value: string,
  before: Before | undefined,
  record: DerivableRecord,
  content: Message,
): Promise<Claim | null> {
  if (before === undefined || sameSpeaker(before.said, content)) return null;
  const asked = askedOf(before.sentences);
  // "Do you still live in Porto?" is answered by a mend ("no, Braga") or a yes ("yep, still porto":
  // Porto again), not by "Sadly"; "Where do you work?" by a value, not by "no, Braga" (which mends what
  // came before it, or nothing).
  const yes =
    asked?.still === true && asked.named !== undefined && c.saidInstead === undefined && saysYes(c.quote);
  if (asked === null || (!yes && (c.inReply || asked.still !== (c.saidInstead !== undefined)))) return null;
  const sentence = asked.said(yes ? asked.named! : value);
  if (!sentence) return null;
  const full = { ...content, text: sentence };
  const input = { ...record, content: full, text: sentence };
  const slots = citableClaims(deriver, input, await deriveContext(uow, [full])).filter(
    (x) => x.predicate !== null && x.ends === undefined && !x.endsHeld && !x.restoresHeld && !x.callsOff,
  );
  const held = slots.length === 1 ? slots[0]! : undefined;
  const said = held === undefined ? null : slotValueAsSaid(held);
  if (held === undefined || said === null) return null;
  return {
    statement: valueStatement(held.subject, held.predicate!, said),
    subject: held.subject,
    predicate: held.predicate,
    owner: held.owner,
    quote: c.quote,
    ...(held.startsAt !== undefined ? { startsAt: held.startsAt } : {}),
  };
}

/**
 * Withdraws the slip a Record's claims mended (`replaces`): each Memory of the other value the mended
 * Record supports (its slot's version, or an agent's read-back kept as a statement of its own) whose
 * every supporting Record is a message of this thread from the last half hour is retracted by this
 * Record, and its lineage settled. It was said in error, not a value that held until now; forgetting
 * the Record brings it back. Support from elsewhere keeps it: then it was true for a while.
 */
export async function withdrawSlips(
  uow: Pick<BrainUnitOfWork, 'records' | 'memories'>,
  record: Pick<RecordRow, 'id' | 'content' | 'occurred_ms'>,
  claims: readonly Claim[],
  seq: number,
): Promise<void> {
  // Most Records mend nothing: their content is not read again for it.
  if (!claims.some((c) => c.replaces !== undefined)) return;
  const content = JSON.parse(record.content) as TypedContent;
  if (content.kind !== 'message' || content.thread === undefined) return;
  const thread = content.thread;
  const lineages = new Set<string>();
  for (const claim of claims) {
    const slip = claim.replaces;
    if (slip === undefined) continue;
    const predicate = claim.predicate;
    const slot = predicate === null ? null : slotKey(claim.subject, predicate, claim.owner);
    const keys = new Set(slip.statements.map(statementKey));
    const wrong =
      predicate === null
        ? null
        : {
            statement: valueStatement(claim.subject, predicate, slip.value),
            subject: claim.subject,
            predicate,
          };
    for (const { id } of await uow.memories.citing([slip.recordId])) {
      const m = await uow.memories.get(id);
      if (m === null || m.retracted_by !== null || m.status === 'retracted') continue;
      // A statement of no slot is the slip by its words alone ("… from March 12 to March 20.").
      const isSlip = keys.has(m.norm) || (wrong !== null && m.slot === slot && sameSlotValue(m, wrong));
      if (!isSlip) continue;
      const cites = await uow.memories.citations([m.id], { shareableOnly: false });
      const support = await uow.records.getMany([...new Set(cites.map((c) => c.record_id))]);
      const ofThisMoment = support.every((r) => {
        const c = JSON.parse(r.content) as TypedContent;
        return (
          c.kind === 'message' &&
          c.thread === thread &&
          r.occurred_ms <= record.occurred_ms &&
          r.occurred_ms >= record.occurred_ms - replyReachMs
        );
      });
      if (!ofThisMoment) continue;
      await uow.memories.update(m.id, { retracted_by: record.id });
      lineages.add(m.lineage);
    }
  }
  for (const l of lineages) await settleLineage(uow.memories, l, seq);
}
