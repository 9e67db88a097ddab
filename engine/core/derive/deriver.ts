import type { SelfEntity, TypedContent } from '../../contract/index.ts';
import type { SelfFirstName } from './resolve-owner.ts';
import type { SaidInstead } from './said-instead.ts';
import type { PlanChange } from './plan-changed.ts';
import type { TaskDone } from './task-done.ts';
import type { TasteEnded } from './taste-ended.ts';
import type { ChoiceDropped } from './choice-dropped.ts';
import type { StateDenied } from './state-denied.ts';

/** A Record as the deriver sees it. `text` is what every quote must be an exact substring of. */
export interface DerivableRecord {
  id: string;
  content: TypedContent;
  text: string;
  sourceName: string | null;
  occurredAt: string;
}

export interface OwnerClaim {
  state: 'self' | 'other' | 'unresolved';
  entity?: string;
}

/** One statement a Record supports. World time (valid_from) is the Record's occurred_at, or `startsAt`. */
export interface Claim {
  statement: string;
  subject: string;
  /** Set for slot-holding claims (facts): at most one current value per (subject, predicate). */
  predicate: string | null;
  owner: OwnerClaim;
  /** Exact substring of the Record's text. */
  quote: string;
  /**
   * The value of `predicate`'s slot the claim says no longer holds ("I no longer work at Acme": Acme).
   * It ends that value, as a new version of the slot, where that value holds the slot at the Record's
   * world time; else it is a statement of no slot (it must not end another value).
   */
  ends?: string;
  /**
   * An ending whose value the sentence does not give as the slot holds it ("We broke up": whichever
   * partner holds the slot; "I broke up with Tom": Tom, among `values`). Before admission it becomes an
   * ending (`ends`) of the value that holds the slot just before the Record's world time, or no claim
   * at all where none of them does (held-endings.ts); its statement until then is the sentence's.
   */
  endsHeld?: HeldSlots;
  /**
   * The reverse of `endsHeld` ("We got back together"): where an ending of one of `values` (any, when
   * absent) holds the slot just before the Record's world time, the value it ended, which holds the
   * slot again from the Record's; no claim at all otherwise (held-endings.ts).
   */
  restoresHeld?: HeldSlots;
  /**
   * Set where an agent (an assistant) says back the person's slot ("Noted: Ana lives in Braga.",
   * agent-words.ts): what the claim is instead, the agent's own statement of no slot, where another
   * value holds the slot at the Record's world time. An agent's words are no independent evidence: they
   * join the value they repeat (a citation) or hold an empty slot, and never replace the person's value.
   */
  restated?: Pick<Claim, 'statement' | 'subject' | 'owner'>;
  /**
   * With `restated`: the claim joins the value holding its slot at the Record's world time only where it
   * is the same value, and is `restated` otherwise, an empty slot too (an agent's sentence of another
   * person's slot with no lead: "Marko lives in Split." holds no slot on its word alone).
   */
  joinsOnly?: true;
  /**
   * On an agent's claim of no slot that reads the person's own words back ("Noted, you're allergic to
   * penicillin.", agent-words.ts `readBackOfSelf`): those words as she would say them, hers. Before
   * admission, where a current Memory of hers has their key, the claim becomes that Memory's statement
   * (a citation of it, quoting the agent's sentence); else it stays what it is (engine/derive/echoes.ts).
   */
  echoes?: Pick<Claim, 'statement' | 'subject' | 'owner'>;
  /**
   * Where a slot value is said to start later than the Record ("I'm starting at Revolut on Monday"): that
   * day's start (RFC 3339), its world time (valid_from) instead of the Record's. It is scheduled until then.
   */
  startsAt?: string;
  /**
   * A plan the sentence says is off ("the porto move is off", "revolut pulled the offer"), on a claim of
   * no slot (the sentence is its statement): the values of `predicate`'s slot, the claim's subject's and
   * owner's, scheduled to start after the Record's world time (those `values` name; any, when absent) are
   * withdrawn, retracted by the Record (derive/called-off-plans.ts). With `keeps` ("we're staying in
   * lisbon after all"), only where that is the value in force then.
   */
  callsOff?: { predicate: string; values?: readonly string[]; keeps?: string };
  /**
   * On a job or a home said in place of a plan ("Change of plans, I live in Porto now", called-off.ts
   * `saysPlansChanged`): before the claim is admitted, every value of its slot scheduled after the
   * Record's world time is withdrawn, as a plan called off is (derive/called-off-plans.ts); else the
   * plan's day would end the value said to hold now.
   */
  plansChanged?: true;
  /**
   * On a claim of no slot whose statement is the whole message: the message only gives a value in place
   * of one said just before ("wait no, it's march 14", said-instead.ts). Before admission it becomes
   * that slot's claim of the new value (`replaces`), where the thread's message just before holds one
   * slot of that kind; else it stays the statement it is (engine/derive/replies.ts).
   */
  saidInstead?: SaidInstead;
  /**
   * On a claim of no slot whose statement is the whole message: the message is a bare value ("Braga",
   * "march 14"), which answers a question the thread's message just before put to the speaker about
   * one of their slots ("Where are you based?", answers.ts). Before admission it becomes that slot's
   * claim, where it does; else it stays the statement it is (engine/derive/replies.ts).
   */
  answers?: string;
  /**
   * On a claim of no slot whose statement is the whole message: a short reply that says little
   * without what it answers ("probably early october", "very fluffy", "maya"). Where the thread's
   * message just before, another speaker's, ends with one question, the statement is that exchange
   * ("When's your birthday? — probably early october"), still quoting the reply as written; a bare
   * answer (`answers`) that holds no slot is read so too (engine/derive/replies.ts).
   */
  inReply?: true;
  /**
   * On a claim of no slot: the message opens with "she" or "he" ("she's a nurse"), whom the same
   * speaker's message just before may name ("My sister Inês lives in Madrid."): the claim is then that
   * person's (engine/derive/replies.ts).
   */
  heOrShe?: true;
  /**
   * On a claim of no slot: the sentence drops an idea or a plan by its words ("scratch the cat idea",
   * idea-dropped.ts). The same speaker's statements of no slot just before that say it ("I think we'll
   * adopt a cat this spring.") are withdrawn by this Record (`replaces`, engine/derive/replies.ts).
   */
  dropsIdea?: string;
  /**
   * On a claim of no slot: the sentence says a plan was moved to another time or called off ("The dentist
   * moved my appointment to Friday instead of Thursday.", "I cancelled my dentist appointment.",
   * plan-changed.ts). On a Record's first derivation, the owner's latest current statement of that plan
   * said before it is superseded by this claim, a new version of its lineage from the Record's world
   * time (engine/derive/changed-plans.ts); else the claim is a statement of its own. `of` is the person
   * the change names (`person` or `by`), as the Brain resolves the name: a plan a person calls off as
   * their own ("Inês can't make it") is looked for among their statements alone, one changed by someone
   * named ("Inês cancelled the trip") among the speaker's, then theirs.
   */
  changesPlan?: PlanChange & { of?: OwnerClaim };
  /**
   * On a claim of no slot: the sentence says a deed done ("I renewed my passport today!", task-done.ts).
   * On a Record's first derivation, the owner's latest open task it does ("To do: renew passport") is
   * done: its next version "Done: renew passport", quoting the sentence (engine/derive/done-tasks.ts),
   * which is then no statement of its own; else the claim is what it was.
   */
  doesTask?: TaskDone;
  /**
   * On a claim of no slot of a known speaker's: the sentence says a taste or habit of theirs is over ("I
   * don't drink tea anymore", taste-ended.ts). On a Record's first derivation, the owner's latest current
   * statement of no slot said before it that states that taste ("I prefer tea in the morning.") is
   * superseded by this claim, its lineage's next version from the Record's world time
   * (engine/derive/ended-tastes.ts); else the claim is a statement of its own.
   */
  endsTaste?: TasteEnded;
  /**
   * On a claim of no slot of a known speaker's: the sentence says a taste or habit said to be over is
   * taken up again ("I'm back on coffee", taste-ended.ts `tasteResumed`). As `endsTaste`: the owner's
   * latest current statement of no slot said before it that ends that taste ("I'm quitting coffee.") is
   * superseded by this claim; else the claim is a statement of its own.
   */
  resumesTaste?: TasteEnded;
  /**
   * On a claim of no slot of a known speaker's: the sentence says a choice of theirs is off ("We are not
   * doing SQLite after all", choice-dropped.ts). As `endsTaste`: the owner's latest current statement of
   * no slot said before it that makes the choice ("We decided to use SQLite.") is superseded by this
   * claim (engine/derive/ended-tastes.ts); else the claim is a statement of its own.
   */
  dropsChoice?: ChoiceDropped;
  /**
   * On a claim of no slot of a known speaker's: the sentence says a state of theirs is not so, in the
   * words it was said in ("Turns out I'm not allergic to walnuts", state-denied.ts). As `endsTaste`: the
   * owner's latest current statement of no slot said before it in those words ("I'm allergic to
   * walnuts.") is superseded by this claim; else the claim is a statement of its own.
   */
  deniesState?: StateDenied;
  /**
   * A value said in place of another a moment before (`saidInstead`, resolved): the Record that said the
   * other, its value and its claims' statements. What that Record alone holds of it is withdrawn,
   * retracted by this Record: it was a slip, not a value that held until now.
   */
  replaces?: { recordId: string; value: string; statements: readonly string[] };
}

/** Which values of a slot a held ending or restoration may reach (parting.ts' HeldEnding). */
export interface HeldSlots {
  /** The values it may reach ("Tom" reaches "Tom Reyes"); absent, whichever holds the slot. */
  values?: readonly string[];
  /** Only where another held claim of the same Record reached a value (a partner named). */
  withPartner?: true;
  /**
   * Of the claims of one group, only the one whose value began last: "We broke up" ends the partner
   * of now, not a boyfriend of 2015 left standing beside a husband of 2020.
   */
  oneOf?: 'partner';
}

export interface DeriveContext {
  self: SelfEntity | null;
  /**
   * Whether the self's first name alone is the self (resolve-owner.ts): asked of the Brain's speakers
   * where a Record names it (derive-context.ts). Left out, that name is another person's.
   */
  selfFirstName?: SelfFirstName;
  /**
   * Another person's first name said alone, folded, to the one whole name the Brain knows by it
   * ("marko" to "Marko Babić"; known-first-name.ts): asked of the store where a Record names it.
   */
  knownFirstNames?: ReadonlyMap<string, string>;
}

/**
 * Record -> claims. Deterministic for a given Record and Brain. The rule-based deriver is the first;
 * a model-backed one can implement the same interface (admission, supersession and conflicts stay
 * outside it). Corrections are not derived: they are applied at write time.
 */
export interface Deriver {
  /**
   * Names what it derives: stored with each Record it derived, and a Record derived under another
   * name is derived again in the background (upgrade-derivation.ts). A new version is a new name.
   */
  readonly name: string;
  derive(record: DerivableRecord, ctx: DeriveContext): Claim[];
}
