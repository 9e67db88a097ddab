import { createHmac, randomBytes } from 'node:crypto';
import {
  pairingBase,
  RecordId,
  RecordReplica,
  ReplicableContent,
  type RecordPage,
  type ReplicaOutcome,
  type ReplicaCorrection,
  newerContentFields,
  type SelfEntity,
  type SyncPairing,
} from '../../contract/index.ts';
import { parseApiKey } from '../../auth/api-key.ts';
import { MnemoError } from '../../errors/mnemo-error.ts';
import { selfOf } from '../../core/shared/brain-self.ts';
import { slotPredicate } from '../../core/derive/slot-key.ts';
import { attributeSentence, relationRoles } from '../../core/derive/slot-sentences.ts';
import { endedValueAsSaid, slotValueAsSaid } from '../../core/derive/slot-value.ts';
import { setSelfIn } from '../brains.ts';
import { nowIso, type BrainRow, type LocalCtx } from '../local-ctx.ts';
import type {
  BrainUnitOfWork,
  PairingRow,
  PushedFields,
  RecordFate,
  RecordRow,
  RunEnd,
} from '../../ports/index.ts';
import { createRedactor, type KnownPeople } from './redact.ts';
import { personNameOf, valueParts } from './redact-people.ts';
import { redactedCopyId } from './replica-id.ts';
import { correctionTarget } from '../../derive/travelled-correction.ts';
import { replicateInto, writeTombstones } from './replicate.ts';
import type {
  OutboxBatch,
  PairingStatus,
  PulledHour,
  RemoteForgets,
  RemoteOf,
  TombstoneBatch,
} from '../../types.ts';

/** Where and as whom a paired Brain syncs. Only the sync runner reads it; no route ever shows the key. */
export type { OutboxBatch, OutboxItem, RemoteOf } from '../../types.ts';

const notPaired = (b: BrainRow) =>
  new MnemoError('sync_not_paired', `brain_id: Brain ${b.id} is not paired with a remote`);

async function requirePairing(ctx: LocalCtx, b: BrainRow): Promise<PairingRow> {
  const p = await ctx.device.pairing(b.uid);
  if (!p) throw notPaired(b);
  return p;
}

const runEnded = (b: BrainRow) =>
  new MnemoError(
    'sync_not_paired',
    `brain_id: Brain ${b.id} was paired again or unpaired during this sync run, which ends here`,
  );

/**
 * The pairing a run started under (RemoteOf.pairingId), still in place. A Brain paired again or
 * unpaired while the run was in flight ends the run here: its cursors, counts and fates belong to a
 * pairing that is gone.
 */
function requireRunPairing(b: BrainRow, p: PairingRow | undefined, pairingId: string): PairingRow {
  if (!p || p.pairing_id !== pairingId) throw runEnded(b);
  return p;
}

/**
 * The version of the rules of which corrections travel (travellingCorrection). Each correction the
 * outbox keeps home is kept under it (RecordFate.skippedUnder); one kept under older rules is offered
 * again on the next run, behind the push cursor. Raise it when a version can send corrections an
 * earlier one kept home. 1: a correction travels with its target; before it (none kept), none did.
 */
export const correctionRules = 1;

/**
 * The version of the rules of what the pull takes (pulledReplica: the kinds of Records, a correction
 * with its target). A page's Records it cannot take are skipped, and the place of the first is kept
 * under it (PairingRow.pull_skipped_from); a later version whose rules are newer reads the feed from
 * there again once (beginReread), taking what it can now. Raise it when a version takes Records an
 * earlier one skipped: a new kind, a field it needs. 1: corrections with their target (before this
 * version, kept by migration 028 as 0, no place was kept: such a pairing reads its whole feed again).
 */
export const pullRules = 1;

export async function syncStatus(ctx: LocalCtx, b: BrainRow): Promise<PairingStatus> {
  const {
    pairing: p,
    pending,
    corrections,
    unsent,
    heldForgets,
  } = await ctx.device.status(b.uid, correctionRules);
  return {
    object: 'sync_status',
    brain_id: b.id,
    paired: p !== undefined,
    remote: p?.remote_url ?? null,
    remote_brain: p?.remote_brain ?? null,
    paired_at: p?.paired_at ?? null,
    last_success_at: p?.last_success_at ?? null,
    last_attempt_at: p?.last_attempt_at ?? null,
    pending,
    pushed: p?.pushed ?? 0,
    pulled: p?.pulled ?? 0,
    held_back: unsent.held_back.count,
    held_back_examples: unsent.held_back.newest.map((r) => r.id),
    held_back_reasons: unsent.held_back.newest.map((r) => ({ record_id: r.id, reason: r.reason })),
    skipped: (p?.pull_skipped ?? 0) + unsent.skipped.count,
    skipped_examples: unsent.skipped.newest.map((r) => r.id),
    corrections,
    last_error: p?.last_error ?? null,
    catching_up: p?.catching_up === 1,
    forgotten_by_remote: p?.forgotten_by_remote ?? 0,
    forgets_held: heldForgets.count,
    forgets_held_examples: heldForgets.newest,
    warning:
      [heldForgetsWarning(b, heldForgets.count), p?.warning, droppedWarning(p?.fields_dropped ?? 0)]
        .filter(Boolean)
        .join('. ') || null,
    pulledHours: pulledHoursOf(p?.pulled_hours ?? null),
  };
}

/**
 * When the remote may make this device forget Records without the person confirming it
 * (docs/sync.md, "Forgets the remote asks for"): up to `floor` Records in a rolling day (counted by
 * the hour, as the pull's budget counts what it read: an hour counts until a day after its end), or up
 * to `share` of this device's own Records whose push the remote took, whichever is more. Past both, the
 * forgets are held, and so is every later one until the person confirms them (acceptForgets); those
 * confirmed count in the day as any other. A person who removes a whole import or most of a Brain on
 * another device confirms once here; a hub that answers every push `forgotten` or names every id under
 * `removed` (hostile, or a key of its project that may forget there) erases no more than that in any
 * day before the person is asked, and cannot raise the share with Records of its own it sends.
 */
export const remoteForgetGuard = { floor: 25, share: 0.1, hourMs: 3_600_000, dayMs: 24 * 3_600_000 };

/** What the remote made this device forget by the hour, as kept (remote_forget_hours). */
type ForgetHour = { hour: number; count: number };

/** The hours kept, those no longer in the day at `now` left out; what is not such an hour too. */
function forgetHoursAt(kept: string | null, now: number): ForgetHour[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(kept ?? '[]');
  } catch {
    return [];
  }
  const { hourMs, dayMs } = remoteForgetGuard;
  const whole = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
  return (Array.isArray(parsed) ? (parsed as unknown[]) : []).flatMap((h) => {
    const [hour, count] = Array.isArray(h) ? (h as unknown[]) : [];
    return whole(hour) && whole(count) && hour + hourMs + dayMs > now ? [{ hour, count }] : [];
  });
}

/** `hours` with `count` forgets at `now` added to its hour, as kept. */
function withForgets(hours: readonly ForgetHour[], now: number, count: number): string {
  const hour = Math.floor(now / remoteForgetGuard.hourMs) * remoteForgetGuard.hourMs;
  const next = hours.some((h) => h.hour === hour)
    ? hours.map((h) => (h.hour === hour ? { hour, count: h.count + count } : h))
    : [...hours, { hour, count }];
  return JSON.stringify(next.map((h) => [h.hour, h.count]));
}

/** What the person is told of forgets held for confirmation; null when none is. */
function heldForgetsWarning(b: BrainRow, n: number): string | null {
  if (n === 0) return null;
  return (
    `the hosted Mnemo asked this device to forget ${n} ${n === 1 ? 'Record' : 'Records'} of this Brain, ` +
    `more than sync forgets without asking (more than ${remoteForgetGuard.floor} and more than ` +
    `${remoteForgetGuard.share * 100}% of the Records that went up from here, within a day); none is forgotten ` +
    'yet, and later forgets from there wait with them (the status names the newest, to open before ' +
    'confirming). If the Records were forgotten on purpose (an import removed ' +
    `on another device), confirm: mnemo sync accept-forgets --brain ${b.id} --count ${n}, or the Sync ` +
    'panel; to keep them here, unpair'
  );
}

/**
 * What the person is told of Records that went up without a newer content field (fields_dropped): the
 * hub and every device that pulls them from it apply them less precisely, and only an upgraded hub
 * ends it. Null when none did.
 */
function droppedWarning(n: number): string | null {
  if (n === 0) return null;
  const fields = Object.entries(newerContentFields)
    .flatMap(([kind, names]) => names.map((f) => `a ${kind}'s ${f}`))
    .join(', ');
  return (
    `${n} ${n === 1 ? 'Record' : 'Records'} went to the hosted Mnemo without ${fields}, which it refused as ` +
    'an unknown field (a version older than this device); there, and on every device that pulls ' +
    `${n === 1 ? 'it' : 'them'} from there, a correction so sent holds from its corrected Memory's own time, ` +
    'not from the date it gives; this device keeps each whole. Upgrading the hosted Mnemo lets later ' +
    'corrections carry their date (the first such field it takes ends this warning); those already sent ' +
    'stay undated there'
  );
}

/** Whose Brains a remote key reaches: its `sk_<env>_<project>` prefix (the whole key if malformed). */
const tenantOf = (key: string) => parseApiKey(key)?.prefix ?? key;

/**
 * Pairs the Brain (or re-pairs it: a new remote, a Brain there or a key of another project or env
 * starts both cursors again, a new key of the same project keeps them). The key is stored in the
 * encrypted store and nowhere else.
 */
export async function pair(ctx: LocalCtx, b: BrainRow, body: SyncPairing): Promise<PairingStatus> {
  const remote = pairingBase(body.remote);
  const remoteBrain = body.remote_brain ?? b.id;
  await ctx.device.pair(
    b.uid,
    {
      remote_url: remote,
      remote_brain: remoteBrain,
      remote_key: body.remote_key,
      paired_at: nowIso(ctx),
      pairing_id: randomBytes(16).toString('hex'),
    },
    // A key of another project or env reaches another Brain under the same id: the cursors start again.
    (p) =>
      p.remote_url === remote &&
      p.remote_brain === remoteBrain &&
      tenantOf(p.remote_key) === tenantOf(body.remote_key),
  );
  return syncStatus(ctx, b);
}

/** Unpairs: the key and cursors go; every Record stays, here and there. */
export async function unpair(ctx: LocalCtx, b: BrainRow): Promise<PairingStatus> {
  if (!(await ctx.device.unpair(b.uid))) throw notPaired(b);
  return syncStatus(ctx, b);
}

export async function remoteOf(ctx: LocalCtx, b: BrainRow): Promise<RemoteOf> {
  const p = await requirePairing(ctx, b);
  return {
    remote: p.remote_url,
    remoteBrain: p.remote_brain,
    remoteKey: p.remote_key,
    pullWatermark: p.pull_watermark,
    pulledHours: pulledHoursOf(p.pulled_hours),
    pairingId: p.pairing_id,
    self: selfOf(b),
  };
}

/**
 * Gives this Brain the self of its remote's Brain when it has none (a second device paired with a hub
 * Brain that has one, or a self set on the hub): whose each Record's words are is read by it here as
 * there (docs/sync.md, "The self"). Set in one unit with the check, so a self the person set meanwhile
 * is never replaced; false then. Every Record of the Brain is derived again as hers (setSelfIn).
 */
export async function takeRemoteSelf(
  ctx: LocalCtx,
  b: BrainRow,
  pairingId: string,
  self: SelfEntity,
): Promise<boolean> {
  let listed = 0;
  const taken = await ctx.units.write(b.uid, async (u) => {
    requireRunPairing(b, await ctx.device.within(u).pairing(), pairingId);
    if ((await u.self()) !== null) return false;
    listed = (await setSelfIn(ctx, u, self)).listed;
    return true;
  });
  // Woken once the change committed, as updateBrain does.
  if (listed > 0) ctx.worker.kick({ upkeep: true });
  if (taken) ctx.logger.info("a Brain took its sync remote's self", { brain_id: b.id });
  return taken;
}

/** Every paired Brain of the store, for the background loop. */
export function pairedBrains(
  ctx: LocalCtx,
): Promise<{ project: string; env: 'test' | 'live'; brainId: string }[]> {
  return ctx.device.pairedBrains();
}

/**
 * The people whose names a redacted copy hides: the self, message speakers, contacts, participants,
 * and the values of the Brain's slots of a person (`relations`: knownBySlots).
 */
async function knownPeople(ctx: LocalCtx, b: BrainRow, relations: string[]): Promise<KnownPeople> {
  const self = b.self_name;
  return { self, others: (await ctx.device.people(b.uid)).filter((n) => n !== self), relations };
}

/** The slots whose values are places and firms: a home, an employer, a school (slot-key.ts). */
const placePredicates = ['lives in', 'works at', 'studies at', 'hometown'];

/**
 * The roles whose slots' values are people: the relations a sentence gives one of at a time ("My wife
 * is Ivana", "Lea's dentist is Dr. Babić": slot-sentences.ts `relationRoles`), and those an agent's or
 * a note's fact gives by its predicate (`spouse: Ivana`, `mother: Snježana`, `best_friend: Tom`),
 * family, friends and people of one's work and care among them, as slot keys hold them (slotPredicate).
 * A fact's value may name a firm or a place ("doctor: Klinika Babić"), which the redactor takes for no
 * one (withRelations).
 */
const personRoles = new Set(
  [
    ...relationRoles,
    ...`spouse fiancée fiancé ex mother father mom mum dad parent parents son sons daughter daughters child
    children kid kids sibling siblings sister sisters brother brothers grandmother grandfather grandma
    grandpa grandparent grandparents grandson granddaughter grandchild grandchildren aunt uncle cousin
    niece nephew friend friends colleague colleagues coworker co-worker neighbour neighbor roommate
    flatmate housemate mentor assistant physician pediatrician paediatrician psychiatrist psychologist
    nanny babysitter lawyer accountant teacher coach tutor trainer guardian caregiver carer nurse`
      .split(/\s+/u)
      .filter((w) => w !== ''),
    'emergency contact',
    'next of kin',
    'mother in law',
    'father in law',
    'sister in law',
    'brother in law',
  ].map(slotPredicate),
);
/** Words before a role that keep it a role of a person: an ex-wife, a stepson, a godmother. */
const rolePrefixes = ['ex ', 'ex-', 'step', 'step-', 'half ', 'half-', 'twin ', 'best ', 'god'];
/** Words after a role that ask for its person's name: `mother_name`, `children_names`. */
const roleSuffixes = [' full name', "'s name", '’s name', ' names', ' name'];

/**
 * The role a slot's predicate (slotPredicate) names a person by, without its name words and the word
 * before it (`ex_wife` and `girlfriend_name` are a wife's and a girlfriend's), or null for a slot of
 * no person's.
 */
function personRoleOf(predicate: string): string | null {
  let root = predicate;
  // The longest first: "mother's name" is a mother's, not a "mother's" one's.
  const suffix = roleSuffixes.find((w) => root.endsWith(w) && root.length > w.length);
  if (suffix !== undefined) root = root.slice(0, -suffix.length);
  if (personRoles.has(root)) return root;
  const prefix = rolePrefixes.find((w) => root.startsWith(w) && personRoles.has(root.slice(w.length)));
  return prefix === undefined ? null : root.slice(prefix.length);
}

/**
 * The predicates a slot of a person may be kept under, each role with each of the words around it
 * (personRoleOf): the slot-predicate index is read by the predicate whole.
 */
const personPredicates = [...personRoles].flatMap((role) =>
  ['', ...rolePrefixes].flatMap((before) => ['', ...roleSuffixes].map((after) => before + role + after)),
);

/**
 * The person a slot held in the speaker's own words names ("tom is my partner now, we met at work":
 * Tom), which say more than the value and from which slot-value.ts reads none, read again as the
 * deriver read it; null for other words.
 */
function ownWordsValue(statement: string, predicate: string): string | null {
  const said = attributeSentence(statement);
  return said !== null && said.predicate === predicate ? said.value : null;
}

/**
 * What the Brain knows by its slots, of anyone, now or once (an ending names one too: "Ana no longer
 * works at Acme"), each value read back as a Memory's page shows it: `places`, the names it knows as
 * a home, an employer or a school, which the redactor takes for no person, each value and each part of
 * one written with commas ("Zagreb, Croatia"), not a value with a digit, which is an address (the
 * redactor's address rules take it) and names no one; `relations`, the values of its slots of a person
 * (personPredicates). One read of the slot-predicate index for both.
 */
async function knownBySlots(ctx: LocalCtx, b: BrainRow): Promise<{ places: string[]; relations: string[] }> {
  const statements = await ctx.units.read(b.uid, (u) =>
    u.memories.slotStatements([...placePredicates, ...personPredicates]),
  );
  const places = new Set<string>();
  const relations = new Set<string>();
  for (const s of statements) {
    const predicate = s.predicate === null ? null : slotPredicate(s.predicate);
    // The slot's predicate where its value is a person's.
    const person = predicate !== null && personRoleOf(predicate) !== null ? predicate : null;
    const value =
      slotValueAsSaid(s) ??
      endedValueAsSaid(s) ??
      (person !== null ? ownWordsValue(s.statement, person) : null);
    if (value === null) continue;
    if (person !== null) {
      // Each part that names someone, the words beside it aside (a phone number, an age: "Zvjezdana,
      // +385 91 555 0101", "Zvjezdana, 12"), and each name of a list however long.
      for (const part of valueParts(value)) if (personNameOf(part) !== null) relations.add(part);
      continue;
    }
    // A slot of neither (a predicate only like a role's) names no place: its value as one would turn
    // off the rules that hide an unknown name.
    if (predicate === null || !placePredicates.includes(predicate)) continue;
    if (/\p{N}/u.test(value) || value.length > 80) continue;
    places.add(value);
    for (const part of value.split(',')) if (part.trim() !== '') places.add(part.trim());
  }
  return { places: [...places], relations: [...relations] };
}

/** Per Brain and store, secret: the same name gets the same pseudonym in every copy of this Brain. */
const pseudonymSecret = async (ctx: LocalCtx, b: BrainRow) =>
  createHmac('sha256', await ctx.device.secret())
    .update(`sync pseudonyms\n${b.uid}`)
    .digest();

type Redactor = ReturnType<typeof createRedactor>;
/** Each Brain's redactor as last made, with the step of the Brain and the self it was made at. */
const redactors = new WeakMap<
  LocalCtx,
  Map<string, { seq: number; self: string | null; redactor: Redactor }>
>();

/**
 * The Brain's redactor, made from what it knows (its people and places) and its secret. Those are read
 * once for as long as the Brain does not change: a run's batches and pages after the first reuse it,
 * and a Record written meanwhile (a new speaker, a new home) makes it anew, so that a name the Brain
 * knows is never missed. The step is read before what it knows: a write in between makes it anew next
 * time rather than never.
 */
async function redactorFor(ctx: LocalCtx, b: BrainRow): Promise<Redactor> {
  const seq = await ctx.brains.currentSeq(b.uid);
  let made = redactors.get(ctx);
  if (!made) redactors.set(ctx, (made = new Map()));
  const kept = made.get(b.uid);
  if (kept && kept.seq === seq && kept.self === b.self_name) return kept.redactor;
  const { places, relations } = await knownBySlots(ctx, b);
  const redactor = createRedactor(
    await knownPeople(ctx, b, relations),
    await pseudonymSecret(ctx, b),
    places,
  );
  made.set(b.uid, { seq, self: b.self_name, redactor });
  return redactor;
}

function replicaOf(r: RecordRow): RecordReplica {
  return {
    id: r.id,
    content: JSON.parse(r.content) as RecordReplica['content'],
    source: {
      ...(r.source_name !== null ? { name: r.source_name } : {}),
      ...(r.external_id !== null ? { external_id: r.external_id } : {}),
      trust: r.trust,
    },
    visibility: r.visibility,
    occurred_at: r.occurred_at,
  };
}

/**
 * A correction as it goes up, with its target (travelled-correction.ts), or null when it cannot travel:
 * not shareable, or its Memory gone or resting on Records that do not travel as they are. One written
 * here by this version keeps the target read as it was written (records.ts), and one that came from a
 * remote (pushed again after the pairing started over) the one it came with; one written by an earlier
 * version reads it now.
 */
async function travellingCorrection(ctx: LocalCtx, b: BrainRow, r: RecordRow): Promise<RecordReplica | null> {
  if (r.visibility !== 'shareable') return null;
  const replica = replicaOf(r);
  const content = replica.content as Partial<ReplicaCorrection>;
  if (content.target !== undefined) return replica;
  const target = await ctx.units.read(b.uid, (u) => correctionTarget(u, content.corrects!));
  return target ? { ...replica, content: { ...(replica.content as ReplicaCorrection), target } } : null;
}

/**
 * The next batch of the outbox, to be sent now. A shareable Record goes whole; a redacted_summary one
 * as a copy the redactor made (under redactedCopyId), or is held back when the redactor is unsure; a
 * correction goes with its target, or is skipped when it has none (travellingCorrection). A redacted
 * copy that came from a remote (pushed again after the pairing started over) goes as it is, under its
 * own id: it was redacted where it was made and again on arrival, and a copy of it under yet another id
 * would be a second Record of the same words on the hub. The batch ends on a whole step. The ids its
 * items will have on the remote are kept first (DeviceSyncStore.markSending). A correction kept home
 * under older rules (correctionRules) comes first, offered again though the cursor is past it: the
 * Records it names are behind the cursor too, and up already.
 */
export async function outbox(ctx: LocalCtx, b: BrainRow, limit: number): Promise<OutboxBatch> {
  const p = await requirePairing(ctx, b);
  const rows = await ctx.device.outbox(b.uid, p.push_seq, limit, correctionRules);
  // Each Record has a step of its own, so a batch of `limit` never cuts one.
  const page = rows.slice(0, limit);
  const batch: OutboxBatch = { items: [], kept: [], throughSeq: page.at(-1)?.seq ?? p.push_seq };
  let redactor: Redactor | null = null;
  const summaries = page.filter((r) => r.visibility === 'redacted_summary').map((r) => r.id);
  const copies = new Set(summaries.length > 0 ? await ctx.device.underOwnId(b.uid, summaries) : []);
  for (const r of page) {
    if (r.visibility === 'local_only') throw new Error(`the outbox read the local_only Record ${r.id}`);
    if (r.kind === 'correction') {
      const replica = await travellingCorrection(ctx, b, r);
      if (replica) batch.items.push({ localId: r.id, replica });
      else
        batch.kept.push({
          localId: r.id,
          fate: 'skipped',
          reason:
            'a correction travels only shareable, of a Memory that rests on shareable Records (it names ' +
            'that Memory by them)',
        });
      continue;
    }
    const replica = replicaOf(r);
    if (r.visibility === 'shareable' || copies.has(r.id)) {
      batch.items.push({ localId: r.id, replica });
      continue;
    }
    redactor ??= await redactorFor(ctx, b);
    const redacted = redactor.redact({ ...replica, id: redactedCopyId(r.id) });
    if (redacted.ok) batch.items.push({ localId: r.id, replica: redacted.replica });
    else batch.kept.push({ localId: r.id, fate: 'held_back', reason: redacted.reason });
  }
  // The batch is about to go: a Record forgotten after the remote took it, its answer lost, must still
  // send the remote its tombstone.
  const first = new Set(
    await ctx.device.markSending(
      b.uid,
      batch.items.map((i) => ({ recordId: i.localId, remoteId: i.replica.id })),
    ),
  );
  for (const i of batch.items) if (first.has(i.localId)) i.firstSend = true;
  return batch;
}

/**
 * Records what the remote answered for a batch and moves the push cursor past it, in one transaction:
 * a crash before this pushes the batch again, which the remote answers `unchanged` (exactly once).
 * An id the remote had forgotten is forgotten here too. Every item needs an outcome: an answer missing
 * one throws, writing nothing. `fields`: what the batch did with content fields newer than the remote
 * (its Records sent without one, or one taken), kept for the status's warning.
 */
export async function markPushed(
  ctx: LocalCtx,
  b: BrainRow,
  pairingId: string,
  batch: OutboxBatch,
  outcomes: ReadonlyMap<string, ReplicaOutcome>,
  fields?: PushedFields,
): Promise<RemoteForgets> {
  const forgotten: string[] = [];
  const fates: RecordFate[] = [];
  // Only what was pushed is summed: what is held back and skipped is counted from the fates (status),
  // so that a Record forgotten since, or a fate of an earlier pairing, is not.
  let pushed = 0;
  // A correction kept home is kept under the rules of now: offered again only when they change.
  const fate = (
    recordId: string,
    f: RecordFate['fate'],
    remoteId: string | null,
    reason?: string,
    refused = false,
  ) =>
    fates.push({
      recordId,
      fate: f,
      remoteId,
      ...(f === 'skipped' ? { skippedUnder: correctionRules } : {}),
      ...(f === 'held_back' && reason !== undefined ? { reason } : {}),
      ...(refused ? { refused } : {}),
    });
  for (const item of batch.items) {
    const outcome = outcomes.get(item.replica.id);
    if (outcome === 'created' || outcome === 'unchanged') {
      fate(item.localId, 'pushed', item.replica.id);
      pushed += 1;
    } else if (outcome === 'forgotten' && item.firstSend) {
      // The remote was never sent this id (its copy's, for a redacted_summary Record: made from a
      // secret of this device), so it cannot have forgotten it: no honest remote answers so. The Record
      // stays, the original of a redacted copy above all, kept as refused there; its id is kept for
      // the tombstone should it be forgotten here. Refused, it never travelled: the remote may not
      // forget it by this id (its feed's removals, a later answer) until it takes a send of it.
      fate(item.localId, 'skipped', item.replica.id, undefined, true);
    } else if (outcome === 'forgotten') {
      forgotten.push(item.replica.id);
    } else if (outcome === undefined) {
      // Not refused: not answered. Nothing is written and the cursor stays, so the batch goes again.
      throw new Error(
        `the remote gave no outcome for the Record ${item.replica.id}; the batch stays pending`,
      );
    } else {
      // A redacted copy the hub holds other content under (an earlier build's redaction) is still
      // this Record's copy there: its id is kept so that forgetting the Record forgets it.
      fate(item.localId, 'skipped', item.replica.visibility === 'redacted_summary' ? item.replica.id : null);
    }
  }
  for (const k of batch.kept) {
    // A held-back Record may have gone up before (pushed by an earlier build, or under an earlier
    // pairing): the id of its copy is kept for the tombstone. A correction never travels in any form.
    fate(k.localId, k.fate, k.fate === 'held_back' ? redactedCopyId(k.localId) : null, k.reason);
  }
  const kept = await ctx.device.markPushed(b.uid, pairingId, fates, pushed, batch.throughSeq, fields);
  if (!kept) throw runEnded(b);
  if (forgotten.length === 0) return { forgotten: 0, held: 0 };
  const { settle, ...done } = await ctx.units.write(b.uid, async (u) => {
    requireRunPairing(b, await ctx.device.within(u).pairing(), pairingId);
    return forgetAsRemoteSaid(ctx, b, u, pairingId, forgotten);
  });
  await settle();
  return done;
}

/** What the guard reads of a pairing (DeviceSyncUnit.remoteForgets). */
type GuardState = Awaited<ReturnType<ReturnType<LocalCtx['device']['within']>['remoteForgets']>>;

/**
 * Forgets, in the caller's unit `u`, the Records the remote said it forgot (a push answered
 * `forgotten`, a feed page's `removed`), named by the ids the remote knows them by: only Records that
 * travelled (writeTombstones' `travelledOnly`), each original of a redacted copy among them. Their
 * tombstones are marked as learnt from the remote, which is not sent the removal back. Counted in
 * forgotten_by_remote. Past the guard (remoteForgetGuard), or while forgets are held already, nothing
 * is forgotten: the ids are held until the person confirms them (acceptForgets). `state`: the guard's
 * reading, when the caller took it before writing in the unit (a pulled page, before its Records).
 */
async function forgetAsRemoteSaid(
  ctx: LocalCtx,
  b: BrainRow,
  u: BrainUnitOfWork,
  pairingId: string,
  remoteIds: readonly string[],
  state?: GuardState,
): Promise<RemoteForgets & { settle: () => Promise<void> }> {
  const rows = ctx.device.within(u);
  const ids = [...new Set(remoteIds)];
  const guard = state ?? (await rows.remoteForgets(pairingId));
  // The Records here these ids reach, those forgotten already and those that never travelled aside.
  const reached = await ctx.originalsOfPushedCopies(b.uid, ids, true);
  const now = ctx.clock().getTime();
  const hours = forgetHoursAt(guard.hours, now);
  const recent = hours.reduce((n, h) => n + h.count, 0);
  const inDay = recent + reached.length;
  const over =
    inDay > remoteForgetGuard.floor && inDay > remoteForgetGuard.share * (guard.travelled + recent);
  if (reached.length > 0 && (guard.held > 0 || over)) {
    await rows.holdForgets(pairingId, ids, nowIso(ctx));
    return { forgotten: 0, held: reached.length, settle: async () => {} };
  }
  const done = await writeTombstones(ctx, b, u, ids, { travelledOnly: true });
  if (done.tombstoned.length > 0) await rows.markRemovalsPulled(pairingId, done.tombstoned);
  const forgotten = done.result.forgotten;
  if (forgotten > 0)
    await rows.noteRemoteForgets(pairingId, { forgotten, hours: withForgets(hours, now, forgotten) });
  return { forgotten, held: 0, settle: done.settle };
}

/**
 * Applies the forgets the guard held (forgetAsRemoteSaid) once the person confirmed them: `count` is
 * how many Records the status showed they reach, and must be how many they reach now (else
 * sync_forgets_changed, nothing forgotten), so that a confirmation covers what the person saw and
 * nothing held since. Those forgotten count in the guard's day as any other: confirming hands the
 * remote no fresh allowance. Answers how many Records were forgotten.
 */
export async function acceptForgets(ctx: LocalCtx, b: BrainRow, count: number): Promise<number> {
  const p = await requirePairing(ctx, b);
  const { forgotten, settle } = await ctx.units.write(b.uid, async (u) => {
    const rows = ctx.device.within(u);
    requireRunPairing(b, await rows.pairing(), p.pairing_id);
    const guard = await rows.remoteForgets(p.pairing_id);
    if (guard.held !== count)
      throw new MnemoError(
        'sync_forgets_changed',
        `count: ${guard.held} ${guard.held === 1 ? 'forget is' : 'forgets are'} held for Brain ${b.id} now, ` +
          `not ${count}; read its sync status again and confirm the count it gives`,
      );
    const ids = await rows.heldForgets(p.pairing_id);
    // Held ids that reach nothing here any more are dropped with the rest.
    const done = guard.held > 0 ? await writeTombstones(ctx, b, u, ids, { travelledOnly: true }) : null;
    if (done && done.tombstoned.length > 0) await rows.markRemovalsPulled(p.pairing_id, done.tombstoned);
    if (ids.length > 0) await rows.dropHeldForgets(p.pairing_id);
    if (!done) return { forgotten: 0, settle: async () => {} };
    const now = ctx.clock().getTime();
    const forgotten = done.result.forgotten;
    await rows.noteRemoteForgets(p.pairing_id, {
      forgotten,
      hours: withForgets(forgetHoursAt(guard.hours, now), now, forgotten),
    });
    return { forgotten, settle: done.settle };
  });
  await settle();
  return forgotten;
}

/**
 * The next `limit` tombstones after the cursor, by step then Record id: the ids of those whose Records
 * may have travelled (pushed, as the id the remote knows, or pulled; a redacted_summary one under its
 * copy's id whatever became of its push). Tombstones of Records that never left the device stay here.
 * A step may be cut: a forgotten import of any size goes as requests of `limit`, each kept as sent
 * (markTombstonesSent), so a run cut short sends none of them again.
 */
export async function tombstonesToSend(ctx: LocalCtx, b: BrainRow, limit: number): Promise<TombstoneBatch> {
  const p = await requirePairing(ctx, b);
  const rows = await ctx.device.tombstones(
    b.uid,
    { seq: p.tombstone_seq, recordId: p.tombstone_after },
    limit,
  );
  const last = rows.at(-1);
  return {
    ids: [...new Set(rows.flatMap((r) => (r.remote_id ? [r.remote_id] : [])))],
    through: last ? { seq: last.seq, recordId: last.record_id } : null,
  };
}

export async function markTombstonesSent(
  ctx: LocalCtx,
  b: BrainRow,
  pairingId: string,
  through: NonNullable<TombstoneBatch['through']>,
): Promise<void> {
  if (!(await ctx.device.markTombstonesSent(b.uid, pairingId, through))) throw runEnded(b);
}

/**
 * The run's pairing pushes and pulls from the start again: its remote Brain no longer knows the pull's
 * watermark (it was deleted and made again, or is another Brain of that id), so what was pushed to it
 * is not there either. Its tombstones are sent again, the removals it learnt from the old Brain with
 * them: the new Brain never held their Records, but a device that has not learnt of a forget yet pushes
 * the forgotten Record to it when it starts over, and the feed would bring it back everywhere. What the
 * pull skipped of the old Brain's feed is forgotten (no re-read of it), as the new one is read whole.
 */
export async function restartPairing(ctx: LocalCtx, b: BrainRow, pairingId: string): Promise<void> {
  if (!(await ctx.device.restart(b.uid, pairingId))) throw runEnded(b);
}

/**
 * The most trust a remote may give a Record here: `medium`, what a Record written without one gets. A
 * hub vouches for nothing of the device that pushed to it, and a hostile or compromised one would
 * otherwise make its Records stand above this device's own sources (docs/sync.md, "Trust of a pulled
 * Record"). Less is kept: a remote may only make this device rely on a Record less.
 */
const remoteTrustCap = 'medium';
const cappedTrust = (trust: unknown): unknown => (trust === 'high' ? remoteTrustCap : trust);

/**
 * A Record of a remote's change feed as a replica this device may write, or null: a feed Record is
 * checked as the replication route checks one (a remote may be buggy or hostile), with content fields
 * this version does not know left out rather than refusing the Record (a newer remote may add some).
 * A correction must carry its target (ReplicaCorrection). Its trust is capped (remoteTrustCap).
 */
function pulledReplica(r: RecordPage['data'][number]): RecordReplica | null {
  const content = r.content as unknown as Record<string, unknown> | null;
  const schema = ReplicableContent.options.find((o) => o.shape.kind.value === content?.kind);
  if (!schema || !content) return null;
  const known = Object.fromEntries(
    Object.keys(schema.shape).flatMap((k) => (k in content ? [[k, content[k]]] : [])),
  );
  const source = r.source as Partial<RecordPage['data'][number]['source']> | undefined;
  const parsed = RecordReplica.safeParse({
    id: r.id,
    content: known,
    source: {
      ...(source?.name != null ? { name: source.name } : {}),
      ...(source?.external_id != null ? { external_id: source.external_id } : {}),
      ...(source?.trust != null ? { trust: cappedTrust(source.trust) } : {}),
    },
    visibility: r.visibility,
    occurred_at: r.occurred_at,
  });
  return parsed.success ? parsed.data : null;
}

/**
 * Applies one page of the remote's change feed in one transaction: its Records are written here under
 * their ids and marked pulled (skipping ids forgotten here, ids already here, and this device's own
 * redacted copies); its removals are applied as tombstones; the page's watermark is kept. A Record
 * that is not a valid replica is skipped and counted, and where it was is kept (pullRules). A
 * redacted_summary Record is redacted here before it is written, as this device would redact its own:
 * a hub holds only redacted copies, but a device's local server, paired as a remote, serves its Records
 * whole. A crash re-reads at most this page, which changes nothing the second time. A page of a re-read
 * (`reread`, beginReread) writes its Records alone (no removal, no count of what it skips again), and
 * keeps the re-read's watermark.
 */
export async function applyPulled(
  ctx: LocalCtx,
  b: BrainRow,
  pairingId: string,
  page: RecordPage,
  o: { reread?: boolean; pulledHours?: readonly PulledHour[] } = {},
): Promise<{ pulled: number; skipped: number } & RemoteForgets> {
  // Read before the unit: the redactor's names and secret are read through the store.
  const redactor = page.data.some((r) => r.visibility === 'redacted_summary')
    ? await redactorFor(ctx, b)
    : null;
  const { pulled, skipped, forgotten, held, settle } = await ctx.units.write(b.uid, async (u) => {
    const rows = ctx.device.within(u);
    const p = requireRunPairing(b, await rows.pairing(), pairingId);
    // What the pull read, this page with it: the page and its count are kept together (its budget).
    if (o.pulledHours) await rows.keepPulledHours(pairingId, keptHours(o.pulledHours));
    // The guard reads the Brain as it was before this page's Records are written: a page may not raise
    // the share it allows with Records of its own.
    const guard =
      !o.reread && Array.isArray(page.removed) && page.removed.length > 0
        ? await rows.remoteForgets(pairingId)
        : undefined;
    const replicas: RecordReplica[] = [];
    let refused = 0;
    for (const r of Array.isArray(page.data) ? page.data : []) {
      if (r === null || typeof r !== 'object') {
        refused += 1;
        continue;
      }
      if (r.visibility === 'local_only') continue;
      // This device's own redacted copies, whatever became of their push, and Records already pulled.
      if (await rows.isOwn(r.id)) continue;
      const replica = pulledReplica(r);
      const redacted = replica?.visibility === 'redacted_summary' ? redactor!.redact(replica) : null;
      if (!replica || redacted?.ok === false) refused += 1;
      else replicas.push(redacted?.ok ? redacted.replica : replica);
    }
    // Marked pulled as each is written, so it is never pushed back.
    const markPulled = (id: string) => rows.markPulled(id);
    const written = replicas.length > 0 ? await replicateInto(u, replicas, nowIso(ctx), markPulled) : null;
    const created = written?.created ?? 0;
    // Not written, and not here: an id this store holds in another Brain (a Record id is unique across a
    // SQLite store: two Brains of this device paired with one hub Brain). Counted, so that the status
    // does not say all went well while the Brain received nothing.
    refused += written?.data.filter((d) => d.outcome === 'conflict').length ?? 0;
    if (o.reread) {
      // Read again for what was skipped: its removals were applied when the pull read them, and what it
      // skips again was counted then. Each Record written now is one skipped then (any other is here).
      await rows.markRereadPage(
        pairingId,
        page.has_more ? (page.watermark ?? p.reread_watermark) : null,
        created,
        refused > 0,
        pullRules,
      );
      return { pulled: created, skipped: refused, forgotten: 0, held: 0, settle: undefined };
    }
    // Only ids a Record can have: anything else in a removal names nothing here.
    const removed = (Array.isArray(page.removed) ? (page.removed as unknown[]) : []).flatMap((r) => {
      const id = (r as { id?: unknown } | null)?.id;
      return RecordId.safeParse(id).success ? [id as string] : [];
    });
    // Only what travelled: the remote may name the id of a Record that never left this device. The
    // guard may hold them; the page is taken all the same, its removals kept to be confirmed.
    const forgets =
      removed.length > 0 ? await forgetAsRemoteSaid(ctx, b, u, pairingId, removed, guard) : null;
    await rows.markPage(pairingId, page.watermark ?? p.pull_watermark, created, refused, pullRules);
    return {
      pulled: created,
      skipped: refused,
      forgotten: forgets?.forgotten ?? 0,
      held: forgets?.held ?? 0,
      settle: forgets?.settle,
    };
  });
  await settle?.();
  if (pulled > 0) ctx.worker.kick();
  return { pulled, skipped, forgotten, held };
}

/**
 * Where the run reads its remote's feed again from, once its pull is through, or null: a re-read under
 * way goes on; one starts when the pull skipped a Record under rules older than this version's
 * (pullRules), which may take it now, from the place of the first such Record (all of the feed for a
 * pairing that pulled before places were kept). Its pages are applied as the pull's (applyPulled,
 * `reread`), which writes only what is not here, and its progress is kept page by page: it happens once
 * per upgrade, across runs and restarts, within each run's pages and deadline.
 */
export async function beginReread(ctx: LocalCtx, b: BrainRow, pairingId: string): Promise<string | null> {
  const from = await ctx.device.beginReread(b.uid, pairingId, pullRules);
  if (from === false) throw runEnded(b);
  return from;
}

/** Ends a run: its time, its error and whether it is catching up (RunEnd). */
export async function finishRun(ctx: LocalCtx, b: BrainRow, pairingId: string, end: RunEnd): Promise<void> {
  // The end of a run whose pairing was replaced meanwhile is not the new pairing's to show.
  await ctx.device.finishRun(b.uid, pairingId, nowIso(ctx), {
    error: end.error === null ? null : end.error.slice(0, 2000),
    catchingUp: end.catchingUp,
    ...(end.warning !== undefined
      ? { warning: end.warning === null ? null : end.warning.slice(0, 2000) }
      : {}),
  });
}

/** What the pull read by the hour, as kept (keepPulledHours); what is not such an hour is left out. */
function pulledHoursOf(kept: string | null): PulledHour[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(kept ?? '[]');
  } catch {
    return [];
  }
  const count = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
  return (Array.isArray(parsed) ? (parsed as unknown[]) : []).flatMap((h) => {
    const [hour, records, bytes] = Array.isArray(h) ? (h as unknown[]) : [];
    return count(hour) && count(records) && count(bytes) ? [{ hour, records, bytes }] : [];
  });
}

/** Keeps what the run's pairing pulled by the hour (its day's budget): allow_more empties it. */
export async function keepPulledHours(
  ctx: LocalCtx,
  b: BrainRow,
  pairingId: string,
  hours: readonly PulledHour[],
): Promise<void> {
  if (!(await ctx.device.keepPulledHours(b.uid, pairingId, keptHours(hours)))) throw runEnded(b);
}

/** What the pull read by the hour, as kept: compact, `[hour, records, bytes]`. */
const keptHours = (hours: readonly PulledHour[]) =>
  JSON.stringify(hours.map((h) => [h.hour, h.records, h.bytes]));
