import {
  afterReadBackLead,
  agentCourtesy,
  agentSpeaker,
  introducesSelf,
  notedOfSelf,
  readBackOfSelf,
  restatedSlots,
} from './agent-words.ts';
import { claimOwner } from './claim-owner.ts';
import { ideaDropped } from './idea-dropped.ts';
import { choiceDropped } from './choice-dropped.ts';
import { stateDenied } from './state-denied.ts';
import { sameSlotValue, slotValueAsSaid } from './slot-value.ts';
import { slotPredicate } from './slot-key.ts';
import { homeParts, homeValue } from './street-address.ts';
import { foldName, resolveOwner, selfFirstName } from './resolve-owner.ts';
import { withKnownFirstNames } from './known-first-name.ts';
import { saysOfSelf } from './says-of-self.ts';
import {
  clauseStatement,
  endedStatement,
  saidBy,
  saidByStatement,
  valueStatement,
} from './slot-statement.ts';
import type { Claim, DerivableRecord, DeriveContext, Deriver, OwnerClaim } from './deriver.ts';
import type { SelfEntity } from '../../contract/index.ts';
import { isCourtesy, isUnsaid, notSaid, within } from './not-said.ts';
import {
  attributeSentence,
  type AttributeSentence,
  goneToAfterSwitch,
  chatEnd,
  leansBack,
  fillers,
  otherPersonSlot,
  possessedAttribute,
  birthdayTurning,
  relationNamedBeside,
  kinNamedBeside,
  namesAPerson,
  slotSentences,
  movingOutOf,
  newHomeSaid,
  type SlotSentence,
} from './slot-sentences.ts';
import { firstNameTitled, personNoteSlot } from './person-note.ts';
import { personSections } from './person-sections.ts';
import { nicknameSaid } from './nickname.ts';
import {
  occupationAs,
  occupationBeforeEmployer,
  occupationOfAnotherSaid,
  occupationSaid,
} from './occupation.ts';
import { reactionOnly } from './reactions.ts';
import { saidInstead } from './said-instead.ts';
import { aboutAnother, firstPerson, opensWithAName, opensWithAThing, relation } from './about-another.ts';
import { escapeRegExp } from '../shared/escape-reg-exp.ts';
import { dayTitle, speaksFirstPerson } from './own-note.ts';
import { bareAnswer, shortReply } from './answers.ts';
import { introClauses, type IntroClause } from './intro-clauses.ts';
import {
  partingSaid,
  partnersEndedBy,
  pastPartnerTold,
  reunionSaid,
  type HeldEnding,
  type PastPartner,
} from './parting.ts';
import { withoutMarkup, withoutNonProse } from './note-markup.ts';
import { fencedRanges } from '../shared/fenced-lines.ts';
import {
  headingsApart,
  listItems,
  numberedLines,
  passages,
  sentences,
  taskItems,
  todoEntry,
  type Span,
  type TaskItem,
  type TodoEntry,
  unwrapped,
} from './split-text.ts';
import { taskStatement } from './task-statement.ts';
import { isQuestion, opensAsQuestion } from './unmarked-question.ts';
import { startDay } from './start-day.ts';
import { newsLeadIns, planCalledOff, saysPlansChanged } from './called-off.ts';
import { planChanged, type PlanChange } from './plan-changed.ts';
import { taskDone } from './task-done.ts';
import { dietOfAnotherSaid } from './diet-of-another.ts';
import { metWithIn } from './met-with.ts';
import { tasteEnded, tasteResumed } from './taste-ended.ts';
import { tasksSaid } from './task-said.ts';
import { withoutNoteMetadata } from './note-metadata.ts';
import { matchesOf } from '../../contract/matches-of.ts';

/** A question, marked or as a chat asks one without its mark ("do i live in porto lol"). */
export const asks = (s: string): boolean => isQuestion(s) || opensAsQuestion(s);

/**
 * Sentences that state nothing on their own: questions, one-word replies ("Thanks!", "ok") and
 * reactions ("lol no", "not really.", reactions.ts).
 */
function isStatement(s: string): boolean {
  return !asks(s) && s.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w)).length >= 2 && !reactionOnly(s);
}

/**
 * What a message with no statement is remembered by: the message whole ("see u at 8"), or its sentences
 * when part of it is someone else's; nothing when it asks, or only reacts ("ok", "👍", "lol no"). A question states nothing, whoever asks it:
 * an assistant's "What city do you live in?" or "Would you like me to remember that?" would be a Memory of
 * its own, in the person's list and in Context as if it were known. What else such a message holds is a
 * word or two ("Cool! What did it look like?"), which remembered alone would be a Memory "Cool!" cited
 * by every such message. The Record stays evidence, next to the answer it drew out.
 */
function unstatedSpans(said: Span[], partUnsaid: boolean, whole: string): string[] {
  if (said.some((s) => asks(s.value))) return [];
  // Reactions alone ("lol no", "ok", "👍") are no Memory either: the Record stays evidence.
  if (said.every((s) => reactionOnly(s.value))) return [];
  return partUnsaid ? said.map((s) => s.value) : [whole];
}

/**
 * What the importers write beside what was said, never a statement: an attachment's placeholder
 * ("[attachment: omitted media]"), a note's `Tags:`/`Links:` footer, and in a note with words of its
 * own, a heading alone. As Memories they filled a person's list with "Tags: #family" and outranked what
 * was said. Only the importers' own forms: in a chat, "Links: the one about the flat" is a message.
 */
const onlyLines = (re: RegExp) => (s: string) =>
  s
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .every((l) => re.test(l));
const placeholderLine = /^\[attachment: ([^\]\n]*)\]$/u;
const isPlaceholder = onlyLines(placeholderLine);

/**
 * The names a text made only of attachment placeholders gives its files ("[attachment: lease.pdf]"),
 * none for WhatsApp's "omitted media", which names nothing; null for a text that says anything else.
 */
export function placeholderNames(text: string): string[] | null {
  if (text.trim() === '' || !isPlaceholder(text)) return null;
  return text
    .split('\n')
    .map((l) => placeholderLine.exec(l.trim())?.[1])
    .filter((n): n is string => n !== undefined && n !== 'omitted media');
}
const isFooter = onlyLines(/^(?:Tags: #|Links: \[\[|(?:[Ss]ee also|Related|Linked)(?: notes?)?:? \[\[).*$/u);
const isHeading = onlyLines(/^#{1,6}\s.*$/u);

/** A note's passages that say something: without its footer, and without headings when it has more. */
function notePassages(all: string[]): string[] {
  const said = all.filter((p) => !isFooter(p) && !isPlaceholder(p));
  const body = said.filter((p) => !isHeading(p));
  return body.length > 0 ? body : said;
}

/**
 * The deterministic, model-free deriver:
 * - fact: one claim on the (subject, predicate) slot;
 * - message: one claim per stating sentence, owned by the speaker; where a known speaker says where
 *   they live or work (slot-sentences.ts), the claim holds that slot, so a later value replaces it;
 * - event: one what/when/where/who claim;
 * - document: one claim per passage (~800 characters of whole sentences).
 * Every Record yields at least one claim, so every Record is represented by a Memory, except one that
 * holds only what an importer wrote beside the words (an attachment's placeholder, a note's footer), and
 * a message that holds only words that are not its speaker's statements (quoted mail, headers, a
 * signature: not-said.ts), only greets or signs off ("Thanks!", "Hi Ana,") or asks and states nothing
 * ("What city do you live in?", "Cool! What did it look like?"). The Record stays evidence.
 */
export function createRuleDeriver(): Deriver {
  return {
    // Recorded with each Record derived (migration 015). Change it whenever the same Record would
    // give other claims, and Records derived before are derived again in the background
    // (upgrade-derivation.ts). v3: sentences are no longer cut after a title ("Dr. Silva", "DR. SILVA").
    // v4: attachment placeholders, a note's `Tags:`/`Links:` footer and its headings alone are no Memories.
    // v5: in a message, quoted mail with its "... wrote:" line, a mail's header lines, what follows an
    // "Original Message" marker or a signature delimiter, and greetings or sign-offs alone (not-said.ts).
    // v6: a slot's Memory quotes its own clause where the sentence says more; a statement joined after it
    // ("I live in Porto and my dentist is ...") is a Memory of its own, without the home; not-said's
    // narrower signature, attribution and courtesy rules.
    // v7: a sentence that only says the speaker's favourite something, phone number or e-mail address
    // holds that slot (slot-sentences.ts, attributeSentence), so a new value replaces the old.
    // v8: a role after an employer is part of its clause ("I work at Zalando as a data engineer"), so a
    // sentence that says only a home and a job is no Memory of its own that outlives them; a statement
    // after the slots that points back with "it" stays in the sentence.
    // v9: no claim changed, but a fact predicate that names a sentence's slot is keyed as that slot
    // (slot-key.ts `slotPredicate`: `home_city` is "lives in"); the pass moves such a fact's Memory there.
    // v10: "we live in" / "we moved to" holds the speaker's home, as "I moved to" does.
    // v11: "my number" written as a phone number is ("my number is 555-0198") holds the phone slot, and
    // an admission after a value (", I had a typo", ", sorry") no longer keeps it from its slot.
    // v12: a question is no Memory: a message of questions alone has none, and one with no statement
    // is remembered without its questions ("Ok. Where to?" is "Ok."); "Really?!" is a question too.
    // v14: a message with no statement that asks has no Memory ("Cool! What did it look like?" was "Cool!").
    // v13: where in the place after a home (", in Kreuzberg, near the canal") is part of its clause, so
    // the sentence is no Memory of its own that outlives a move.
    // v15: no claim changed, but the same value of a slot in other words (a fact's "me home city: Lisbon",
    // "I live in Lisbon") from the same instant joins the version holding it (slot-value.ts): the pass
    // folds such pairs, written before as two values of the slot, a conflict that agreed with itself.
    // v16: no claim changed, but a statement is keyed by statement-key.ts ("I really love hiking!" is "I
    // love hiking."): the pass keys each Memory so and folds the repeats written before into the first.
    // v17: a mark with no space after it ends no sentence ("…/edit?usp=sharing"), so a message holding
    // such a link is no question and keeps its Memory.
    // v18: no claim changed, but a phone number is compared by its digits (slot-value.ts: "555-0198" is
    // "555 0198"): the pass folds such pairs from one instant, written before as a conflict of one number.
    // v19: a home is a place (not-a-place.ts): "We moved to Slack", "we moved to Postgres" hold no home.
    // v20: a message whose speaker is blank ("   ") is of `unknown speaker`, as one with none (its
    // Memories were about '').
    // v21: "my new number is …", "my current e-mail is …" hold their slot as "my number is …" does:
    // the sentence that tells of a change left the old value current.
    // v22: "I moved back to Lisbon" holds the home as "I moved to Lisbon" does.
    // v23: a second slot clause whose "I" is left out holds its slot ("I live in Porto and work at
    // Sonae"); it was a Memory "work at Sonae." and the old employer stayed current.
    // v24: "I moved from Lisbon to Porto" holds the home Porto (a move from a product is none).
    // v25: a move whose "I" a chat leaves out at the sentence's start holds the home ("Just moved to
    // Porto!").
    // v26: a role before the employer is part of the job's clause ("I work as a nurse at Santa Maria").
    // v27: "my number (has) changed to …" holds the attribute as "my number is …" does.
    // v28: a sentence that says one slot and more ("I live in Lisbon with my partner Tom") holds the
    // slot in its own words, no Memory of its own beside it that outlived a move.
    // v29: "I no longer work at Acme", "I don't live in Lisbon anymore" end that value where it holds the
    // slot (a version "Ana no longer works at Acme"), and are a statement of no slot where it does not.
    // v30: a chat all in lower case holds a home or a job ("i live in porto": Porto), and "I'm based in
    // (or out of) Berlin" holds the home.
    // v31: a question a chat asks without its mark ("do i live in porto or lisbon lol") is no Memory,
    // as one with its mark is not.
    // v32: a chat whose only capitals are its "I" and its first letter, as a phone types them ("I live
    // in porto"), is read as a chat all in lower case is: it holds the home Porto.
    // v33: a message whose speaker is the self's first name alone ("Maya" for "Maya Costa") is the
    // self's, unless another speaker of the Brain has that first name ("Maya Silva"): then unresolved.
    // v34: a document whose title says it is about the self ("About me", "Me", her name) is hers,
    // each sentence a Memory of its own, a home or a job holding its slot (claim-owner.ts aboutSelf).
    // v35: an ending said with more ("I don't work at Acme anymore, they went bust") is the ending
    // alone, quoting the sentence; two slots said with more are each their part of the sentence, with no
    // Memory of the whole beside them; no word of a home in a lower-case chat is a state ("i live in
    // constant fear"). The pass also places endings by the person's times (place-endings.ts): one
    // written before the value it ends ends it, and one beside another value at one instant is no
    // conflict.
    // v36: a note the person keeps in the first person ("Tom and I booked a trip to Porto for May.") is
    // hers whatever its title, as an "About me" is, unless the Record says its words are another's: a
    // calendar's description, a chat's attachment, a pasted or forwarded mail, a quote, a web clipping
    // (own-note.ts). It was nobody's, on the Census.
    // Also v36: an assistant's statement that says back a slot of the person ("Noted: Ana lives in
    // Braga.", "Got it, you work at Feedzai.") holds her slot where it is empty or repeats its value,
    // and is the assistant's own statement where another value holds it (agent-words.ts, `restated`).
    // It was a current Memory of no slot that outlived her move.
    // v37: a job taken holds the job ("I got a job at Globex", "I took a position with Initech", "I got
    // hired by Acme", "I work remotely for Globex", "I'm a nurse at Santa Maria"), and one left ends it,
    // said with no negation ("I quit my job at Acme", "I was laid off from Initech"): the old employer
    // stayed current beside a Memory of no slot. A home or a job said as lasting until now holds its
    // slot however long it has lasted ("I've been living in Porto for two years"). A correction's denial
    // beside the value it gives ("I live in Braga, not Porto", "I don't live in Porto, I live in Braga")
    // no longer holds the value back. "Currently living in Porto" holds the home, "Just started at
    // Globex!" the job, and a second clause after "but" its slot ("I live in Porto but work at Sonae").
    // v38: a stay or a date is the clause's it follows ("I live in Porto and have been working at Sonae
    // for a year" lost the home to the job's "for a year"), an ongoing second clause keeps its "have",
    // and "I'm from Lisbon but live in Porto" holds the home. A person one has one of at a time, named
    // ("My new boss is Rita Gomes" after "My manager is Tom Reyes"), and one's age in years ("I just
    // turned 35" after "I'm 34 years old") replace the value before: both stayed current. Where a
    // named person other than the self lives or works holds that person's slot ("Carla moved to Paris"
    // after "My sister Carla lives in Madrid"). A chat in lower case holds a job taken or held as a
    // cased one does ("i'm a nurse at santa maria", "i got hired by globex").
    // v39: a diet one keeps holds a slot ("I'm vegan now" replaces "I'm vegetarian"), and "I'm not
    // vegetarian anymore" ends it: it stayed current beside the ending, a Memory of no slot. A fact's
    // `dietary_preference` is that slot. So does where one stands in love ("I got engaged!", then "We
    // just got married!"; a fact's `marital_status`): "I'm single" stayed current beside both. A chat's
    // "im" and a laugh or an emoji after such a sentence (an age's too) keep it its slot. Where one
    // studies holds a slot ("I transferred to UCL" after "I study at MIT"; "I graduated from UCL" ends
    // it): a Memory of no slot each, all current.
    // v40: "I'm married to Tom" and "I'm vegan, so no cheese" hold the status or the diet, the sentence
    // their Memory in its own words: a Memory of no slot, it stayed current beside "I'm divorced". A
    // later clause with a subject of its own keeps its time to itself: "I live in Porto and I worked at
    // Sonae in 2019" held no home.
    // v41: everyday chat phrasings that replaced a true home or job with a wrong one hold nothing ("the
    // city i live in is porto", "Imagine I live in Tokyo", "Growing up, we moved to Ohio", "I live in
    // Lisbon I love it"); a "not" or "if" after a slot's clause is a later clause's; more phrasings hold
    // their slot or end it ("I lost my job at Door Dash", "I've lived in Berlin for 10 years"); a note's
    // list markers, links and emphasis are not its Memories' words.
    // v42: a parting ends the partner who holds the slot ("We broke up", "I broke up with Tom", "My
    // boyfriend dumped me", "I'm not with him anymore"; "I'm single now" too), and "in a relationship"
    // or "engaged" with them: the boyfriend stayed current beside the sentence; "We got back together"
    // gives him the slot back. "..., and now I'm in Denver" ends a story of moves at home. A chat in
    // lower case is cut at its full stops ("i live in porto. its nice here" was one sentence, and no
    // home).
    // v43: a parting told by "he" or "we" after a story of a partner of the past ("I dated Jake in
    // college. He dumped me.") is that partner's: it ended today's partner. "She broke up with me over
    // text", "… on my birthday" are partings too. A note's embeds alone on their lines ("![[plan.png]]")
    // and Obsidian's comments ("%% … %%") are no Memories' words, nor a message's fenced code ("items =
    // [1, 2, 3]" of a chat answer).
    // v44: one who writes "i" leaves names uncased whatever else they capitalise ("i live in porto,
    // work at Acme Corp"), a second clause after a comma ("…, work at Sonae") or after "im from lisbon
    // originally but", a number or a name then
    // a clause ("my partner is Jordan, we've been together 4 yrs"), "My wife is called Maria", "my
    // wife's name is maria", "My new job is at Stripe", "oh and I'm vegetarian", one's birthday as a
    // slot, and "jk lol, …" opening the next sentence: each held nothing, and the old value (or an
    // assistant's wrong read-back) stayed current. "I quit Feedzai" ends the job where Feedzai holds it.
    // "she's a nurse" right after "my sister Maya lives in Madrid." is Maya's; an MCP note's "User lives
    // in Leeds." is read as an agent's read-back. An agent's note of "the user" through MCP ("User's
    // sister Maya is a nurse.") is about the self: its Memories were about "mcp". A line that opens in
    // lower case or says "i" is cut at its full stops as a chat in lower case is ("my sister Maya lives
    // in Madrid. she's a nurse" was one sentence, and went with the home when she moved).
    // v45: a job or a home said to come with its day ("I'm starting at Revolut on Monday", "moving to
    // berlin next month", "my first day at Stripe is tomorrow") holds its slot from that day; and a
    // chat's move or job with its "I" left out after the speaker's own lead-in ("update: moved to lisbon").
    // Words under a chat's line that hands them over ("forwarding from ines:") are not the speaker's.
    // In a note named after a person ("People/Ana Lima.md"), "She lives in Porto", "Her partner is
    // Pedro" are that person's, not the note's writer's. A chat shouting or in Title Case ("GOT THE JOB AT
    // REVOLUT!!!"), "just started at revolut", "new job at revolut!", "accepted the offer from revolut",
    // "living in porto now", "finally settled in porto", "moved into the new place in Porto" hold their
    // slot; "we moved to porto 2 weeks ago" holds it from that day. "carla is my girlfriend now", "new
    // number again, its …", "changed my number to …" and "my birthday is march 4 not march 14" hold theirs.
    // An assistant's sentence about the person by her name ("Reminder: Lucía prefers window seats") is hers.
    // "my gf is Marta", "vegan now", "went vegan last month", "not vegetarian anymore btw", "i'm
    // vegetarian, have been for like 5 yrs" and "i was born on march 4 1992" hold their slots. News of
    // someone else's job said so after it ("new job at revolut for carla!", "(my sister, not me)", "— my
    // sister i mean") holds none, and "NOT" alone after a sentence takes it back.
    // v46: a plan said to be off ("the porto move is off", "revolut pulled the offer", "we're not moving
    // to porto after all") withdraws the job or home it was to bring; the old one holds on. A plan given
    // a new day ("starting at revolut on the 23rd now") replaces the day it had. A job lost ("got laid off
    // today", "my last day at revolut was friday") ends the job held; "i'm dating carla", "been seeing
    // carla for 3 months" hold the partner; "my number is … if u need it", "email is …", "pls use … from
    // now on" hold the number or the address.
    // v47: a relation named in passing ("went hiking with my wife Sarah") holds its slot beside the
    // sentence, unless the sentence may say it is over or the words are someone else's; "I broke up
    // with my boyfriend Tom" ends Tom; reactions alone ("lol no", "ok") are no Memory; "I joined Stripe as a staff engineer" and "back in lisbon for good" hold
    // the job and the home. What one does for a living ("I work as a nurse", "i'm a software engineer",
    // "I got promoted to senior engineer") holds an occupation slot of its own (occupation.ts). An
    // attribute said of a named person ("Tom's birthday is March 4", and "Maya's phone number is …" in
    // Maya's own words) holds that person's slot. A chat's introduction ("quick intro: software engineer
    // at globex, live in lisbon") is read clause by clause (intro-clauses.ts).
    // v48: a message that only gives a value in place of one said just before ("wait no, it's march
    // 14", "globex not globant lol", "*Braga") holds the slot the thread's message before it held, of
    // the same kind or named, and withdraws that slip (said-instead.ts): it was a Memory of no slot, and
    // the wrong value (or an assistant's wrong read-back) stayed current. A bare value ("Braga", "march
    // 14") answering the message before it ("Where are you based?", "when's your birthday?") holds
    // the slot asked about (answers.ts): it was a Memory "Braga" of no slot. A name's small words are
    // in it ("Rio de Janeiro", "Banco do Brasil", "vila nova de gaia"): the home was "Rio". A statement
    // that opens with another person doing or being what only a person does ("Inês is vegetarian
    // though", "My sister Inês is a nurse") is theirs (about-another.ts): it was a line of her Profile.
    // A later clause that says an attribute whole holds it ("i have a cat named Pimenta and my boyfriend
    // is Rui", "i eat meat again, not vegetarian anymore"), and "i eat meat again" ends a meatless diet.
    // A short reply to another's question is that exchange ("When's your birthday? — probably early
    // october"): it was a line "probably early october" of her Profile. "she's a nurse" after the
    // speaker's "My sister Inês lives in Madrid." (or "Inês is a nurse.") is Inês's.
    // v49: the role said with an employer ("I'm a nurse at Santa Maria", "I work at Zalando as a data
    // engineer") holds the occupation beside the job: it held the employer alone. A named person's
    // occupation ("Rui is a nurse", "My brother Rui works as a paramedic at INEM") holds theirs. "she"
    // or "he" is read with the name it stands for ("Inês is a nurse. She works at Santa Maria."). "My
    // partner Priya's birthday is …" holds Priya's birthday (it held her name alone), and a relation
    // named in passing quotes "my partner Priya". "I'm fully vegetarian now", "I've decided to go vegan",
    // "…, so I'm vegetarian now" hold the diet. A note's checklist is an item a Memory, not one. "I
    // accepted the offer from Helix Bio! I start on December 1st." starts the job that day.
    // An assistant's "Happy to help!", "Let me know if you need anything else." are no Memory.
    // A note named after a person: its "Birthday: 14 March", "company: [[Acme]]" lines hold theirs.
    // "i'm a nurse at santa maria", "Rui isn't a nurse anymore" hold the occupation. An assistant's
    // "Noted, you're allergic to penicillin." cites her "I'm allergic to penicillin." (echoes.ts).
    // A numbered list's items are each a Memory; "…, so I'm vegan now too" holds the diet. "wait no,
    // it's March 14 to March 22" mends the dates of the sentence before; "scratch the cat idea"
    // withdraws it; "No, it's Jordan Reyes, not Lee." mends the surname; "My last day at Dell is
    // December 18" ends Dell after that day; "I'm allergic to cats, so keep that in mind" is the
    // allergy alone; "Jordan is allergic to cats." is Jordan's; "I'm Sam." and "Nice to meet you!" none.
    // v50: a speaker or participant who is the self's whole name without its accents ("Ines Conceicao")
    // or in decomposed form (NFD) is the self, as her first name alone was (resolve-owner.ts); a name
    // written family name first is hers without its space and by its last word; a home or a job said to
    // hold now ("I live in Lisbon now") before a plan of the same value begins withdraws that plan, which
    // closed it on its day; "Change of plans, I live in Porto now" withdraws the plans of its slot to come.
    // v51: a note named after another person that the self writes in the first person ("People/Rui
    // Sousa.md": "My younger brother. Allergic to peanuts!") gives them its key lines and what it says
    // of no one else; it was all hers. "My younger brother." is hers, as "Rui Sousa is my younger brother."
    // v52: an untitled note's passage that opens with another person ("Sam prefers the window seat.",
    // an agent's note through MCP) is theirs, a slot said of them held; it was the source's ("mcp"). So
    // is such a sentence of an agent's note that also says something of the user: it was hers. A passage
    // whose later sentence opens with someone else ("Sam lives in Leeds.\nAna is a nurse.") stays the source's.
    // v53: such a passage holds each slot its sentences say of the person, by name or "he"/"she"; a
    // later sentence that opens with someone else starts what is theirs.
    // v54: "Sam Jones" after "Sam Lee" is someone else, not him: his home was Sam Lee's. A later
    // sentence that opens with another name, a person's or not ("Acme Corp moved to Berlin.", "Ana has
    // two kids."), and says no "he" or "her", is the source's, not the person's before it.
    // v55: the user's kin as an agent's note names them ("User's sister Ana lives in Madrid.") are
    // theirs, as "My sister Ana …" in her words is; the sentence was hers, in her Profile.
    // v56: her kin by her name in an agent's note ("Maya's brother Sam works at Google.") as the
    // user's; another person's slot an agent's note says as "he"/"she" is its restatement, as by name.
    // v57: a title with its dot is part of a name ("Dr. Patel lives in Leeds.").
    // v58: kin named beside their role ("My sister Marta started at Siemens", "Marta, my sister, …") are
    // a Memory of no slot, the speaker's, about them ("Rui's sister is Marta"): only her job was held. A
    // birthday said by the age turned on it ("Ana turns 30 on 12 March", "My dad turns 70 on March 12")
    // holds it. "I moved out of Porto" ends the home where Porto holds it. "My brother Tiago is a nurse
    // in Lisbon." holds his occupation.
    // v59: "May is a nurse.", "Hope lives in Lisbon." hold May's and Hope's slots (a month or a hedge
    // that is a name, before what only a person does). In an agent's note, the "she" after her name is
    // hers, not a namesake's. "It is beautiful.", "Rent is high there." after a home or a job are
    // quoted by its claim, not a Memory of their own. "He moved to York in 2023." holds the home from
    // that year's first day (a year after a move was history).
    // v60: a place named after "in" ("My sister Marta works at Siemens in Munich. She …") is where,
    // not another person the "she" may be: the "she" is Marta's, as without the place.
    // v61: what another speaker says of the Brain's person by her name ("Ana lives in Porto", "Ana's
    // birthday is May 3rd", "Ana is a nurse" in Rui's words) is hers, in her slot, in words that say
    // who said it ("Rui says Ana lives in Porto"): it was his Memory of no slot, which never met hers.
    // The same value joins hers; another contests it, a conflict, and never replaces it (settle-lineage.ts).
    // Also v61: "My new job at Google starts Monday." holds the job from that day (it held nothing), and
    // "New job at Google starts next week!" holds it from then, no longer from when it was said.
    // And "Sam lives in Leeds. He moved to York." holds York as his home: a move with no day said with
    // "he" or "she" is no clash with the home said just before (it was a Memory of no slot).
    // v62: a "she" or "he" is not the person the text gives the other pronoun ("My brother Rui …",
    // "Rui lives with his wife.", a "he" of his before), and a move with no day said with a pronoun
    // replaces the home just said only where the text says the pronoun is theirs ("My brother Sam lives
    // in Leeds. He moved to York."): "Rui lives in Porto. She moved to Lisbon." moved Rui. In another
    // speaker's words, a "she" after the Brain's person's name ("Ana got a new job. She works at Google
    // now.") and an end of her job or home ("Ana doesn't work at Acme anymore.") are hers as he says
    // them, contesting her value: both were his Memories of no slot.
    // v63: a time word before a favourite's "is" ("My favorite coffee now is a cortado") is no part of
    // the attribute: the sentence holds "favourite coffee", replacing the one said before, where it
    // held a slot "favourite coffee now" of its own. A note's heading on the line above its words ("##
    // Bacalhau à Brás\nPotatoes, …") is no Memory, as one in a paragraph of its own is not. A move
    // said "yesterday", "last week", "last month" or "last year" holds the home from then, as "a month
    // ago" does; it held from when it was said.
    // v64: a checklist's task says whether it is done ("- [x] renew passport" is "Done: renew
    // passport", "- [ ] send Priya the doc" is "To do: send Priya the doc"): both were "renew
    // passport", an open task and a ticked one alike, and a question of what is still to do could not
    // tell them apart.
    // v65: a sentence of the person's own that opens with another person by name doing something to
    // what is theirs ("Inês cancelled her trip, she will come in January instead.", "Tom booked his
    // flights.") is theirs, as "My sister Inês is visiting" is: it was hers, in her Profile, the verb
    // being none that only a person does. A "she" or "he" sentence that also says the writer ("She told
    // me the team offsite is in Porto.", "He and I went to Porto.") and holds no slot of theirs stays
    // the writer's, as "Priya told me …" does: it was the other person's. In a note named after
    // another person, "My manager at Lumen Labs." is read as "Priya Nair is my manager at Lumen
    // Labs.", as "My younger brother." was: where from, who they are is still hers to say.
    // v66: a favourite then how the speaker feels of it or of the one before ("My favorite tea is
    // hojicha now, I am tired of genmaicha.", "…, it's so good") holds the favourite's slot, replacing
    // the old value: it was a sentence of no slot beside it, both current. Another person's state
    // followed by its consequence ("Leo is allergic to cats, so we cannot adopt the kitten.") and a
    // name followed by what "he" or "she" has or is ("Leo can't make it, he has a climbing
    // competition.") are theirs: the "we" after "so", or nothing at all, made them the writer's.
    // v67: a calendar's to-do as imported ("To-do: Renew passport\nDue: …", a `document`), or a note
    // that opens "To-do: call the bank", is a task as a checklist's is: "To do: Renew passport", or
    // "Done: Book flights" under a "Done" line. It was one Memory of its lines, "To-do: … Due: …",
    // which a question of what is still to do never found, and a done one read as still to do.
    // v68: a task said in a sentence ("remind me to water the tomatoes", "note to self: book the
    // vet", "I still need to call the bank", "add oat milk to my to-do list") is "To do: …", quoting
    // the task's words: it was the sentence, which the to-do question never found.
    // v69: a person who calls off their own plan ("Inês has to cancel", "Sam can't make it", "Inês just
    // told me she isn't coming after all") supersedes their latest plan; both stayed current.
    // v70: a short reply's exchange quotes the clause that asks ("Can you cover the standup? — Sure,
    // get well soon."), not what the asker said of themselves before it in the same sentence: "I will
    // be out sick today, can you cover the standup? — Sure, …" was the replier's, in her Profile.
    // "Marko has a new number: +385 …" holds Marko's phone number, as "Marko's new number is …" does:
    // it was the speaker's sentence, and his old number stayed his.
    // v71: a deed the speaker says they need to do ("I need to renew my passport", "I have to pick up
    // the kids", "gotta call the plumber", "I must book the flights") is "To do: …", as "I still need
    // to" was, so "Renewed my passport today" ticks it off: it was a sentence, and ticked nothing. A
    // need that is no deed ("I need to sleep more", "I have to admit…", "I need to go now") stays one.
    // Tasks listed in one sentence ("I still need to buy the vase for Petra and call the bank") are a
    // Memory each: they were one task, which a deed of either did in full.
    // Also v71: a plan moved or called off in the words of news passed on ("The dentist called: my
    // appointment moved from Tuesday to Thursday …", "Heads up: the standup moved to 10am", "the
    // trip is not happening") supersedes the plan, an appointment found by whom it is with ("I booked
    // the dentist for Tuesday"); the same plan also written unowned (an agent's or a calendar's event,
    // "Dentist (Dr. Horvat)") is superseded too. Both stayed current beside the move.
    // v72: a taste or habit the speaker says is over ("I don't drink tea anymore", "I no longer eat
    // meat", "I stopped playing tennis", "I switched from tea to coffee") supersedes their latest
    // statement of it ("I prefer tea in the morning."): both stayed current, the old one quoted as so.
    // Also v72: "My gym membership runs until the end of February." (a membership, lease, visa, …
    // said to end, run or be valid until a day) holds the slot "gym membership ends", so it replaces
    // an agent's fact of that slot; it was a sentence beside it.
    // v73: the day a value starts said after it ("I'm now Lead Data Scientist at Brightwave, starting
    // January 1", "I live in Porto, as of next month") holds it from that day, the role said with it
    // too: it held from when it was said. A job title in capitals needs no article ("I'm CTO at
    // Globex"): it held no job at all.
    // v74: a note that keeps several people under headings of their names ("People.md": "## Ana
    // Kovač", "- Birthday: March 12", "## Mum (Vesna Marić)", …) gives each section's key lines to the
    // person its heading names: the note was read as one person's, its title's ("People", taken for a
    // first name by a birthday line), each birthday and phone replacing the one before in one slot.
    // Also v74: "is actually" reads as "is" where a value is said ("Marko's birthday is actually July
    // 3, not July 2.", "my number is actually …"): it held no slot, or "actually sushi" as a favourite.
    // Also v74: a daily note titled by its day alone ("2026-11-13") is read as an untitled one, so a
    // passage opening with a person ("Marko works at Span now.") is theirs: it was the note's, about
    // "2026-11-13".
    // v75: the self's first name in another's words ("Lena's birthday is May 4." for Lena Kovac) is
    // hers where nobody else known has it (derive-context.ts), as her whole name was: her slot as he
    // says it, where it was a person "Lena" beside her.
    // v76: "I have a new job at Infobip" and "Ana has a new job at Infobip" hold the job, and said of
    // another, a day it starts said after it ("…, starting in January") holds from then: both were
    // the speaker's sentences.
    // v77: a note's passage whose first sentence says another person's slot by any verb ("Ana got a
    // new job at Infobip. Celebrated with cake.") is theirs, as "Ana works at Infobip. …" was: it
    // was the note's passage, of no slot.
    // v78: "Precedence: bulk", the line the mail importer writes for mail sent to a list of subscribers
    // (a newsletter), is a header line of the mail's block: the block ended there, and its Subject and
    // From lines became Memories.
    // v79: another person's first name alone ("Marko's birthday is July 3.") is the one person the Brain
    // knows by it from a slot ("Marko Babić", known-first-name.ts), where it knows one: his slot, where
    // it was a person "Marko" beside him.
    // v80: "Her …" or "His …" opening a sentence after one that names someone ("My sister Klara
    // moved to Graz. Her new address is Sporgasse 12.") is theirs, as a "she" or "he" is: it was
    // the speaker's.
    // v81: a choice the speaker says is off ("We are not doing SQLite after all", "We switched from
    // SQLite to PostgreSQL", "We'll go with Fly instead of Hetzner") supersedes their latest statement
    // making it ("We decided to use SQLite for the desktop store."), as a taste ended does: both stayed
    // current, the old decision quoted first for "What database did we decide on?". Also v81: a state
    // of the speaker's said not to be so in its own words ("Turns out I'm not allergic to walnuts")
    // supersedes their statement of it ("I'm allergic to walnuts."). Also v81: a mailing's boilerplate
    // ("Click here to read more.", "Unsubscribe anytime.") and greetings and sign-offs in Croatian,
    // Polish, Italian and other languages ("Bok Zoë,", "Lijep pozdrav, Marko") are no Memories. Also
    // v81: a line of a person's note opening with a verb of theirs ("Owes me a dinner for the Hvar
    // trip") is theirs though it says "me": it was the writer's, on her Profile. Also v81: a daily
    // note (titled by its day alone) is the self's journal though it says no "I" ("Moved into the new
    // flat today."): it was nobody's certain, about "2026-11-18".
    // v82: an imported note's opening property lines that only file it ("status: active", "type:
    // project", "aliases: …", note-metadata.ts) are no statements: each was a Memory of the person's.
    // A plan said with where it goes ("My flight to Lisbon moved to Friday.") is read, naming that place;
    // her change of it supersedes a booking of it mailed to her (plan-changed.ts `isBookingChanged`), as
    // it does a calendar's event of it.
    // v83: "Sr.", "Sra.", "Dra.", "Jr.", "Hr.", "e.g.", "i.e.", "No. 5" and initials ("J. R. R. Tolkien")
    // end no sentence; "I start there on 11 January 2027 as a senior data engineer" after a job's news,
    // and "I'm starting at Sonae as a senior data engineer on January 11", hold the job and the role
    // from that day (the news held the job from the day it was said, the next sentence a statement).
    // v84: a calendar's event still to come, which an import dates by its start, is the plan a change
    // said before that day names ("The dentist moved my appointment from Thursday …" of "Dentist – Dr.
    // Ferreira" on Thursday 10 December), and a trip called off by its place ("the Christmas trip to
    // Zagreb is off") is an event of days there ("Christmas in Zagreb with Mama"): both stayed current
    // beside the change. The event is replaced from its start (settle-lineage.ts).
    // v85: a home given by its street address holds the home ("I now live at Vlaška 17", "We moved
    // into Vlaška 17", "My new address is Vlaška 71", "Lea's new address is Vlaška 71, not 17 — the
    // letter had a typo", "Klara lives at Sporgasse 12"), said "Lea lives at Vlaška 17"; "I'm moving
    // out of my flat on Ilica 42 next Saturday" holds Ilica 42 in its own words, and "The new flat is
    // at Vlaška 17" right after it holds Vlaška 17 from that Saturday: each was a statement of no slot,
    // all current, none in the Profile's slots. "I live at the gym" holds nothing. A decision said to be
    // reversed by the words naming it ("we reversed the kickoff decision") and a value said in place of
    // a thing an earlier choice made ("…, not React Native") supersede that decision, as a choice said
    // to be off does. And a plan changed supersedes her own calendar's event of it beside the plan she
    // said before it ("Booked the trip to Lisbon …" and "Flight to Lisbon with Marko"): the event
    // stayed current.
    // v86: a street address said with its city is one home of both ("I moved to Vlaška 17 in Zagreb",
    // "My address is Vlaška 17, 10000 Zagreb": "Lea lives at Vlaška 17, Zagreb"; the city was lost), and
    // a city and an address one Record gives of one person ("I live in Zagreb. My address is Vlaška
    // 17.", a people note's "City:" and "Address:" lines) are that home, cited by each: two values at one
    // instant, or a note's address no home at all. Admitted, an address said alone is in the city the
    // home holds then, and that city said again is the home held (derive/home-held.ts): the address
    // replaced the city. A new city, or an address in another city, replaces both.
    // v87: "Petra and I broke up tonight" (and "earlier today", "yesterday evening", "the other
    // day", "last Friday") ends the partner as "last night" did; "I now live at Savska cesta 41" holds
    // the home, and "I moved to Savska cesta 41" holds all of it (a street's word in lower case: it held
    // "Savska", or nothing); "My dentist is Dr. Ante Perić at Vlaška 44" holds the dentist (the "at"
    // defeated it), and "I've decided to switch dentists: from now on I go to Dr. Kristina Babić", or
    // its two sentences, moves it; "My salary is 3,400 EUR net" holds the salary a `salary` fact holds;
    // "vjenčanje je 12. lipnja u Samoboru" is one sentence, not "… je 12." and "lipnja u Samoboru".
    // Each was a statement of no slot, the value before it current.
    // v88: a name the speaker says people call them by ("Hi, I'm Tomislav, most people call me Tom.",
    // "I go by Tom", "My name is Tomislav (Tom)", "Tom here.", nickname.ts) holds their `nickname` slot
    // ("Tomislav Kovačević's nickname is Tom"), which retrieval reads as another name of the Brain's
    // own person (retrieve/self-names.ts); the sentence was a statement of no slot. A fact `nickname`,
    // `goes_by`, `known_as` or `preferred_name` holds the same slot.
    // v89: an agent's read-back of another person's slot ("Noted: Marina's birthday is March 3." after
    // "My sister Marina's birthday is on March 3.") is that slot's value restated: it joins her Memory
    // of it and is superseded with it when she corrects the day (it stayed current as the agent's own).
    // A sentence that ends a partner ("Petra and I broke up last night.") closes what the Record that
    // gave her said of them together ("We've been together three years.", derive/tied-statements.ts).
    // "We cancelled Vienna." calls off the trip there, which "Petra and I are planning a weekend in
    // Vienna, December 12 to 14." says in words; it takes that plan (not only her calendar's event of
    // it), the Record's "We booked the Hotel Motto." and the assistant's note of the trip with it.
    // v90: a taste quit in everyday words ("I'm quitting coffee", "I quit coffee", "No more coffee for
    // me") ends the speaker's statement of it, a coffee by its kind ("I love a strong espresso") too; one
    // taken up again ("I'm back on coffee", "I started drinking coffee again") supersedes that ending
    // (taste-ended.ts `tasteResumed`): all three stayed current, the quitting quoted first. "Last day at
    // Span." ends the job named that day, and "First day at Infobip!" said alone starts it that day:
    // both were statements, and the job changed only with a later `employer` fact.
    // v91: a sentence that says a nickname holds every other slot it says ("My friends call
    // me Tom and I just moved to Split." the home too; it held the nickname alone). No nickname from
    // "Same here.", "I go by Uber to work", "I am in Zagreb (Croatia)", "My sister Kristina, Kiki for
    // short", "Mia said: call me Tom." or a title ("Call Me By Your Name is a great film."): each
    // replaced the true one. A fact `called` holds no nickname ("Ana called Mom"). "My pay is 2 weeks
    // late again." holds no salary (a salary's value is the amount with currency and period words
    // only); "I want to switch dentists: I will be seeing Dr. Babić" moves nothing (a switch wished);
    // "My kids are 7 and 12. April is …" is two sentences (a month spelled as English is no foreign
    // month after a day's full stop).
    // v92: a break-up closes only what was said of the couple in a lasting state ("We've been
    // together three years.", couple-said.ts), not "My parents have been together 40 years." nor "Yesterday
    // we went hiking together", and a store derived before v89 is closed on upgrade; a trip called off
    // takes only its own bookings ("I also booked the dentist for Monday." stays), of two plans there the
    // nearer (or the one it dates), with the agent's notes of that date under any agent's name; "No more
    // meetings today", "No more coffee in the office", "I quit coffee for Lent" and "Marko said: I quit
    // coffee." end no taste; an agent's sentence of another person holds their slot only after a lead
    // ("Noted:") or joining the value said before; "First day at Web Summit!" starts no job, and "First
    // day at Infobip!" only where no job is held. Each was read so in v89 or v90.
    // v93: a stop for a while is read only right after the thing quit ("I don't drink
    // coffee anymore, it kept me up until 3am.", "I quit coffee in March." and "Like Marko says, I quit
    // coffee for good." end the taste again); a first day at any name but an event's or a place's
    // ("Coachella" now one) starts the job, as before v92 ("I work at Span." then "First day at
    // Infobip!" moves it); a booking for the plan's own time ("We booked the Hotel Motto for the
    // weekend.") goes with the trip called off.
    // v94: no nickname from a role or a relation's word ("Everyone calls me Boss.", which made "Where
    // does my boss work?" a question about her) nor from a place passed ("I go by Maksimir Park twice a
    // week.", "I go by Zagreb on my way to Split."). A break-up closes no "We are a couple of weeks
    // behind.", "I am with Petra at the cafe.", "We are together in the band." nor "We are in love with
    // Vienna." (couple-said.ts); "I'm with Petra now." still goes with her. "My dentist is Dr. Babić
    // in Trešnjevka." holds the dentist as "… at Vlaška 44" does (not "… in January"). "I quit coffee
    // for my wife." ends the taste ("for" someone's sake; "No more chocolate for the kids" still ends
    // none), and "We also booked the Hotel Motto." goes with the trip called off.
    // v95: a question without its mark may ask of someone's or of the thing after its wh-word
    // ("where does my sister live these days", "when is the party"): no Memory, as with a pronoun;
    // a message whose speaker is "human" (LangChain's transcripts) is the Brain's own person's.
    // v96: v94 mended after review9a. "I also booked the plumber." (a table, a flu shot, "Luka also
    // booked his hotel in Graz") stays when the trip is called off; "also"/"too" goes with it only for
    // the stay's own bed or travel in no other place ("We also booked the Hotel Motto."). A break-up
    // closes "We've been together at least three years.", "We're together at last.", "… in a
    // relationship" again, not "I'm with Petra for the weekend." nor "…, at the cafe.". "I quit coffee
    // for Dry January." (for Sunday, Veganuary, Thanksgiving) ends nothing; a name alone is someone's
    // sake only where the Brain knows a person by it. "I go by Tom a lot these days.", "Everyone calls me
    // Doc." / "Skipper" / "Coach K" are nicknames again; a relation's word alone ("Boss") still is none.
    // v96 (use9 H3, a WhatsApp chat's words): "I GOT THE RIMAC JOB!" and "I work at company ZetaCorp."
    // hold the job, "Data analyst, starting 7 September." after the news starts it and the role that
    // day, and "First day at Rimac done!" starts it as "First day at Rimac!" does. A plan's change may
    // open a later clause ("Ok let's do it: the Lisbon trip is off, …"), "Lisbon is now 10-17 October."
    // moves the trip, and "I booked the flights for Lisbon, …" is the trip. "I've decided: I'm going
    // vegetarian from today." holds the diet, and "…, so pescatarian now" (its "I'm" left out) too.
    // "Surgery went fine! Mama is in recovery, …": how something went, said of no one right before
    // a sentence that opens with someone else, is theirs (use9 M1), not a health line of the speaker's.
    // "Luka is my brother-in-law, Ana's husband." names Luka the brother-in-law (not Ana), and "Luka
    // is my colleague from Span." the colleague, as "Luka, my colleague, …" did.
    // v97: a booking said in a message of its own in the plan's thread goes with the trip called off
    // (read as first said, if moved since): one naming its place ("We booked a hotel in Vienna."), or
    // its bed or travel said right after the plan ("We booked the Hotel Motto."); "We booked the
    // plumber.", a booking after another place or a trip of another month or in another thread, or
    // someone else's ("Luka booked a table in Vienna.", "My sister booked a hotel in Vienna.") stays; a
    // partner's goes with a "we" plan, and "In December." after a plan naming none is its month.
    // "I go by Jo Park." of Joanna Park is her nickname: a full name with a place's kind in it is hers
    // where that kind is a word of her name and another of its words is of her name or her first name
    // cut short ("Maksimir Park", and "Victoria Station" of Victoria Hughes, still a place passed).
    // v98 (use10 M5, H1): a mail's greetings and sign-offs in German, Croatian and to a group ("Team,",
    // "Dear tenants,", "Liebe Kolleginnen und Kollegen,", "Sehr geehrte Frau Lindqvist,", "Guten Tag
    // …,", "Poštovani,", "Beste Grüße", "LG", "Namaste, Yogawerk", "Ihr Praxisteam Dr. Novak") are
    // courtesy, and a mail's last line of its own words that is only its sender's name ("Jonas",
    // "Ordination Dr. Huber" from "Ordination Dr. Markus Huber") is its signature: none is a Memory.
    // v99 (use10 M4): a note's, a document's or a mail's paragraph hard-wrapped at 72 or 100
    // characters is read as one run of prose (split-text.ts `unwrapped`): each line was a sentence of
    // its own, and "I loved how slowly the truth comes through the" and "journal entries." were two
    // Memories. A statement reads the wrap as a space; its quote keeps the line break as written.
    // v100 (use10 H3): a note of hers titled or tagged for a facet of her ("Health", "My allergies",
    // #health, #diet), naming no one else as its subject, is hers without an "I" (own-note.ts
    // facetNote): "- Allergy: penicillin (rash, 2019)." of Health.md is a health line of her Profile.
    // Not one tagged as a people folder's note, titled by a person or a kin word, holding a line of
    // another's (keyed by a name, a kin word anywhere: "Mum: blood pressure 150/90", "Peanuts (Leo).",
    // "For Grandma: …"), saying it is shared or family's, or reading as an article ("Source: …").
    name: 'rules-v102',
    derive(said: DerivableRecord, ctx: DeriveContext): Claim[] {
      const record = withoutItsMetadata(said);
      if (record.text.trim() === '' && said.text.trim() !== '') return [];
      const flat = asProse(record);
      if (flat !== record) return quotedAsWritten(derived(flat, ctx), flat.text, record.text);
      return derived(record, ctx);
    },
  };
}

/**
 * A Record whose prose may be hard-wrapped (a note, a document, a mail) with its soft line breaks as
 * spaces (unwrapped: the same length); the Record itself where it has none, or where a line is what
 * its speaker meant one to be (a chat's message). As withoutItsMetadata, only the text read changes:
 * whose a note is (own-note.ts) is read from its lines as written.
 */
function asProse(record: DerivableRecord): DerivableRecord {
  const c = record.content;
  if (c.kind !== 'document' && !(c.kind === 'message' && record.sourceName === 'mbox')) return record;
  const text = unwrapped(record.text);
  if (text === record.text) return record;
  return { ...record, text };
}

/**
 * Claims read from the unwrapped text (`flat`) quoting the Record's text as written: the same span,
 * with the line breaks the statement reads as spaces. Claims come in the order of the text, so each
 * quote is looked for from where the last was found (from the start again only when not found after
 * it): one search from the start for each claim took seconds for a note of a megabyte.
 */
function quotedAsWritten(claims: Claim[], flat: string, text: string): Claim[] {
  let from = 0;
  return claims.map((c) => {
    let at = flat.indexOf(c.quote, from);
    if (at < 0) at = flat.indexOf(c.quote);
    if (at < 0) return c;
    from = at;
    const quote = text.slice(at, at + c.quote.length);
    return quote === c.quote ? c : { ...c, quote };
  });
}

/** A Record's claims, read from its text as `derive` gives it. */
function derived(record: DerivableRecord, ctx: DeriveContext): Claim[] {
  const c = record.content;
  const todo = c.kind === 'document' ? todoEntry(record.text) : null;
  const claims = oneHomeSaid(
    todo === null
      ? claimsOfRecord(record, ctx)
      : [todoClaim(record, todo, ctx), ...afterTodo(record, todo, ctx)],
  );
  const named = forKnownPeople(withKnownFirstNames(claims, ctx.knownFirstNames, spokenBy(c)), ctx);
  return c.kind === 'document' || c.kind === 'message' ? withTaskState(named, record.text) : named;
}

/**
 * The claims with no taste ended "for" a name the Brain knows no person by ("I quit coffee for Dry
 * January.", "… for Sunday"): a stop for a while, not for that person's sake ("… for Petra.", where a
 * Petra is known: ctx.knownFirstNames).
 */
function forKnownPeople(claims: Claim[], ctx: DeriveContext): Claim[] {
  const known = (name: string) => ctx.knownFirstNames?.has(foldName(name)) ?? false;
  return claims.map((c) => {
    if (c.endsTaste === undefined || tasteEnded(c.quote, known) !== null) return c;
    const { endsTaste: _, ...rest } = c;
    return rest;
  });
}

/**
 * A city and a street address one Record gives of one person's home ("I live in Zagreb. My address is
 * Vlaška 17.", a people note's "City: Zagreb" and "Address: Vlaška 17"): one home, the address in that
 * city, which each of them holds ("… lives at Vlaška 17, Zagreb"), so that the slot meets one value
 * cited twice. Two values at one instant were a conflict, or the address alone held the slot. Not where
 * they are two homes (two cities, two addresses, a day one of them starts, an ending), nor a home said
 * as being left, or by someone else, in words of its own.
 */
function oneHomeSaid(claims: Claim[]): Claim[] {
  const isHome = (c: Claim) =>
    c.predicate !== null &&
    slotPredicate(c.predicate) === 'lives in' &&
    c.ends === undefined &&
    c.restated === undefined &&
    saidBy(c) === null;
  const whose = (c: Claim) => `${c.subject}\u001f${c.owner.state}\u001f${c.owner.entity ?? ''}`;
  const homes = new Map<Claim, string>();
  const byWhom = new Map<string, Claim[]>();
  for (const c of claims.filter(isHome)) byWhom.set(whose(c), [...(byWhom.get(whose(c)) ?? []), c]);
  for (const group of byWhom.values()) {
    if (group.length < 2 || group.some((c) => c.startsAt !== undefined || movingOutOf(c.statement))) continue;
    const parts = group.map((c) => homeParts(slotValueAsSaid(c) ?? ''));
    const distinct = (xs: (string | null)[]) =>
      new Map(xs.flatMap((x) => (x === null ? [] : [[x.toLowerCase(), x] as const]))).values();
    const streets = [...distinct(parts.map((p) => p.street))];
    const cities = [...distinct(parts.map((p) => p.city))];
    if (streets.length !== 1 || cities.length !== 1) continue;
    const home = homeValue({ street: streets[0]!, city: cities[0]! });
    for (const c of group) homes.set(c, clauseStatement(c.subject, 'lives in', home));
  }
  return claims.map((c) => {
    const statement = homes.get(c);
    return statement === undefined ? c : { ...c, predicate: 'lives in', statement };
  });
}

/** Sources of notes whose front matter the importers write as the note's first lines. */
const importedNotes = new Set(['obsidian', 'markdown']);

/** An imported note with the property lines that only file it blanked (note-metadata.ts). */
function withoutItsMetadata(record: DerivableRecord): DerivableRecord {
  if (record.content.kind !== 'document' || !importedNotes.has(record.sourceName ?? '')) return record;
  const text = withoutNoteMetadata(record.text);
  return text === record.text ? record : { ...record, text };
}

/** Whom a Record names as its speakers: a message's speaker, an event's participants. */
function spokenBy(c: DerivableRecord['content']): string[] {
  if (c.kind === 'message') return c.speaker === undefined ? [] : [c.speaker];
  if (c.kind === 'event') return c.participants ?? [];
  return [];
}

/** A to-do's task, as a checklist's: "To do: Renew passport", quoting its words. */
function todoClaim(record: DerivableRecord, todo: TodoEntry, ctx: DeriveContext): Claim {
  const { subject, owner } = claimOwner(record, ctx);
  const words = record.text.slice(todo.start, todo.end);
  const statement = taskStatement(todo.done, withoutMarkup(words, record.sourceName === 'obsidian'));
  return { statement, subject, predicate: null, owner, quote: words };
}

/**
 * What a to-do's Record says after its opening and its due and done lines (its description), read as
 * the rest of a note is: those lines blanked, so each quote is still the Record's own text.
 */
function afterTodo(record: DerivableRecord, todo: TodoEntry, ctx: DeriveContext): Claim[] {
  const rest = record.text.slice(todo.through);
  if (rest.trim() === '') return [];
  const text = record.text.slice(0, todo.through).replace(/[^\n]/gu, ' ') + rest;
  return claimsOfRecord({ ...record, text }, ctx);
}

/** A Record's claims, before a checklist's tasks say whether they are done (withTaskState). */
function claimsOfRecord(record: DerivableRecord, ctx: DeriveContext): Claim[] {
  const c = record.content;
  const whole = record.text.trim() || record.text;
  // Whom each claim is about and whose it is: one rule, which a correction from another side
  // stated here follows too (claim-owner.ts).
  const { subject, owner } = claimOwner(record, ctx);
  const others = (name: string) => resolveOwner(name, ctx.self, ctx.selfFirstName);
  switch (c.kind) {
    case 'fact':
      return [{ statement: record.text, subject, predicate: c.predicate, owner, quote: record.text }];
    case 'message': {
      // Quoted mail, headers and signatures are not the speaker's to own, nor code a statement;
      // greetings hold nothing.
      const unsaid = [...notSaid(record.text), ...fencedRanges(record.text)];
      // An assistant's service words ("Happy to help!", "Let me know if you need anything else.")
      // hold nothing of the person's either: each was a Memory in her list.
      const serving = agentSpeaker(c.speaker, record.sourceName);
      const said = sentences(record.text).filter(
        (s) =>
          !isPlaceholder(s.value) &&
          !within(unsaid, s.start, s.end) &&
          !isUnsaid(s.value) &&
          !(serving && agentCourtesy(s.value)) &&
          !(owner.state === 'self' && introducesSelf(s.value, ctx.self)),
      );
      if (said.length === 0) return [];
      const stated = said.filter((s) => isStatement(s.value));
      // "I'm allergic to peanuts, so keep that in mind for any recipes": the request is to the
      // listener, not what is true; the statement is what comes before it.
      const spans = (
        stated.length > 0 ? stated.map((s) => s.value) : unstatedSpans(said, unsaid.length > 0, whole)
      ).map((s) => (serving ? s : withoutAsideToListener(s)));
      // An assistant's words about the person ("Noted: Ana lives in Braga.") are hers to hold, as a
      // restatement of her slot (agentClaims); the rest of what it says is its own.
      const agent = serving ? ctx.self : null;
      // "we broke up. jk", "i'm vegan... not really": the next sentence takes it back, so it holds
      // no slot, ends none, and is a statement as said.
      const followedBy = (test: (next: string) => boolean) =>
        new Set(said.flatMap((x, i) => (i + 1 < said.length && test(said[i + 1]!.value) ? [x.value] : [])));
      const takenBack = followedBy(takesBack);
      // "You're allergic to penicillin. Is that right?": an agent's guess it asks her to confirm is
      // its own words, nothing of hers.
      const asked = followedBy((next) => asksIfRight.test(next.trim()));
      const told = toldBefore(said.map((x) => x.value));
      const { who: referents, sure } = referentsOf(
        said.map((x) => x.value),
        owner.state === 'other' ? ctx.self : null,
      );
      // "Surgery went fine! Mama is in recovery …": how it went, said of no one, right before a
      // sentence of someone else's, is theirs; it was the speaker's, a health line of her own.
      const ofTheNext = new Map(
        said.flatMap((x, i) => {
          const who = i + 1 < said.length ? outcomeOfTheNext(x.value, said[i + 1]!.value) : null;
          return who === null ? [] : [[x.value, who] as const];
        }),
      );
      // "I've decided to switch dentists. From now on I go to Dr. Babić.": whom one goes to holds the
      // slot the sentence before switched.
      const afterSwitch = new Map(
        said.flatMap((x, i) => {
          const a = i > 0 ? goneToAfterSwitch(x.value, said[i - 1]!.value) : null;
          return a === null ? [] : [[x.value, a] as const];
        }),
      );
      const read = unique(spans).flatMap((s): SaidClaim[] => {
        if (takenBack.has(s)) return [{ statement: s, subject, predicate: null, owner, quote: s }];
        const newsOf = agent === null && owner.state === 'self' ? ofTheNext.get(s) : undefined;
        const whose = newsOf === undefined ? null : others(newsOf);
        if (whose?.state === 'other')
          return [
            { statement: s, subject: whose.entity ?? newsOf!, predicate: null, owner: whose, quote: s },
          ];
        const switched = agent === null && owner.state !== 'unresolved' ? afterSwitch.get(s) : undefined;
        if (switched !== undefined) {
          const statement = valueStatement(subject, switched.predicate, switched.value);
          return [{ statement, subject, predicate: switched.predicate, owner, quote: s }];
        }
        if (agent !== null)
          return asked.has(s)
            ? sentenceClaims(s, subject, owner)
            : agentClaims(s, subject, owner, agent, undefined, others);
        // "my sister Maya lives in Madrid. she's a nurse": what "she" is, is Maya's, not the speaker's.
        const about = referents.get(s);
        const theirs = about !== undefined && owner.state !== 'unresolved' ? others(about) : null;
        const ofThem = theirs?.state === 'other' ? heOrSheClaims(s, about!, theirs) : null;
        if (ofThem !== null && !toldTheSpeaker(s, ofThem)) return ofThem;
        // "Ana got a new job. She works at Google now." in Rui's words: her slot as he says it
        // (saidOfSelf), and the speaker's words, as before, where it holds none or clashes.
        const hers = theirs?.state === 'self' ? heOrSheClaims(s, about!, theirs, owner) : [];
        if (hers.some((c) => c.predicate !== null && saidBy(c) !== null))
          return hers.map((c) => ({ ...c, unheld: { subject, owner } }));
        const read = sentenceClaims(s, subject, owner, others, told.get(s));
        // "she's a nurse" opening a message: whose it is, the speaker's message before may say
        // ("My sister Inês lives in Madrid."; engine/derive/replies.ts).
        const first = s === said[0]?.value && about === undefined && opensWithHeOrShe.test(s.trim());
        return first && owner.state !== 'unresolved'
          ? read.map((c) => (c.predicate === null ? { ...c, heOrShe: true as const } : c))
          : read;
      });
      // "Actually, scratch the cat idea": what it drops, only the speaker's message before says.
      const claims = agent === null ? read.map(withIdeaDropped) : read;
      // "wait no, it's march 14" mends the value the thread said just before; "Braga" answers its
      // "Where are you based?": only the message before can say which slot (engine/derive/replies.ts).
      const only = claims.length === 1 && claims[0]!.predicate === null ? claims[0]! : null;
      if (agent === null && only !== null && only.quote === whole) {
        const instead = saidInstead(whole);
        if (instead !== null) return [{ ...only, saidInstead: instead }];
        const answer = bareAnswer(whole);
        if (answer !== null) return [{ ...only, answers: answer }];
        if (shortReply(whole)) return [{ ...only, inReply: true }];
      }
      const kept = withoutPronounClashes(claims, sure);
      const moves = newHomeOnMoveDay(kept);
      const dated = startsWithItsDay(withStarts(startSaidNext(moves, record.occurredAt), record.occurredAt));
      const placed = withPlaceSaidAfter(dated, record.text);
      if (agent !== null) return placed;
      const changed = placed.map((c) => withPlansChanged(c, record.text));
      return [...changed, ...lastDaysAhead(changed, record.occurredAt)];
    }
    case 'event':
      return [{ statement: whole, subject, predicate: null, owner, quote: whole }];
    case 'document': {
      // "People.md" of "## Ana Kovač", "- Birthday: March 12", "## Marko Babić", …: each section is
      // read as a note named after its person, the rest as the note it is.
      const sections = personSections(record.text, c.title, personTitled, record.sourceName === 'obsidian');
      if (sections !== null)
        return sections.flatMap((s) =>
          claimsOfRecord({ ...record, text: s.text, content: { ...c, title: s.person ?? c.title } }, ctx),
        );
      // Code, tables and tag lines are no statements: read around them (their lines blanked, each
      // passage still an exact substring of the Record).
      // Comments ("%% … %%") are Obsidian's: elsewhere "%%" is a printf's or a rate's percent sign.
      const obsidian = record.sourceName === 'obsidian';
      const prose = withoutNonProse(record.text, obsidian);
      const listed = numberedLines(prose);
      const all = passages(prose)
        .flatMap((p) => listItems(prose, p, listed))
        .flatMap((p) => headingsApart(prose, p))
        .map((p) => record.text.slice(p.start, p.end));
      const ps = notePassages(all);
      if (all.length > 0 && ps.length === 0) return [];
      // Whom the note is named after ("People/Ana Lima.md"; a first name its lines bear out), if anyone.
      const person =
        personTitled(c.title) ??
        firstNameTitled(
          c.title,
          ps.flatMap((p) => p.split('\n')),
          obsidian,
        );
      // "About me", or a note of hers in the first person: its statements are the self's as her
      // messages' are, each sentence its own Memory, a home or a job holding its slot ("I live in
      // Lisbon. I work at Feedzai.").
      if (owner.state === 'self') {
        const stated = ps.flatMap((p) => sentences(p).filter((x) => isStatement(x.value)));
        const told = toldBefore(stated.map((x) => x.value));
        // "People/Ana Lima.md": "She lives in Porto. Her partner is Pedro." are Ana's, though the
        // note is the person's own ("Ana Lima is my best friend"); else the person the sentence
        // before said where they live, as in a message. Her own first name as the title ("Ana")
        // may be her own card: nothing says it is another Ana's, so the note stays hers.
        const titled = person !== null && foldName(person) === selfFirstName(ctx.self) ? null : person;
        // An agent's note through MCP says the person's slots as an agent's message does ("User
        // lives in Leeds."): as her slot where it is empty or repeats its value, never replacing it.
        const agentNote = record.sourceName === 'mcp' && ctx.self?.type === 'person' ? ctx.self : null;
        // "Maya's brother Sam works at Google.": her kin by her name, read as "User's brother Sam".
        const kinRead = (x: string) => (agentNote === null ? x : asUsersKin(x, agentNote));
        const referents = namedJustBefore(stated.map((x) => kinRead(x.value)));
        // "Maya lives in Lisbon. She prefers the aisle.": in an agent's note her name is hers
        // (agentNoteNamingSelf), and so is the "she" that stands for it, not a namesake's.
        const hersByName = (name: string) =>
          agentNote !== null && [foldName(agentNote.name), selfFirstName(agentNote)].includes(foldName(name));
        const hersAfter = (x: string) => {
          const about = opensWithHeOrShe.test(x) ? referents.get(kinRead(x)) : undefined;
          return titled === null && about !== undefined && hersByName(about);
        };
        const whoseIs = (x: string): OwnerClaim | null => {
          const about = opensWithTheirs.test(x) ? (titled ?? referents.get(x)) : undefined;
          const theirs = about === undefined || hersAfter(x) ? null : others(about);
          return theirs?.state === 'other' ? theirs : null;
        };
        // "People/Rui Sousa.md" in her words ("My younger brother. Allergic to peanuts!") is about
        // Rui as it is without them: his birthday line and what it says of no one else were hers.
        const about = titled === null || agentNote !== null ? null : others(titled);
        const them = about?.state === 'other' ? about : null;
        if (stated.length > 0) {
          // What a home is like, said after it, goes with it (withPlaceSaidAfter).
          const read = withStarts(
            unique(stated.map((x) => x.value)).flatMap((x): SaidClaim[] => {
              const theirs = whoseIs(x);
              // "She lives in Porto." in "People/Ana Lima.md": her home, as "Ana Lima lives in Porto."
              const named = theirs !== null && opensWithHeOrShe.test(x) ? theirs : null;
              const claims = named === null ? null : heOrSheClaims(x, named.entity!, named);
              if (named !== null && claims !== null && !toldTheSpeaker(x, claims)) {
                // An agent's word of another, as by name: restated, never replacing what was said.
                if (agentNote === null) return claims;
                return claims.map(agentsWordOfAnother(byName(x, named.entity!)));
              }
              if (theirs !== null && claims === null) {
                const statement = withoutMarkup(x, obsidian);
                return [{ statement, subject: theirs.entity!, predicate: null, owner: theirs, quote: x }];
              }
              const read = (s: string) => sentenceClaims(s, subject, owner, others, told.get(s));
              if (them !== null && titled !== null)
                return sentenceOfTheirNote(x, titled, them, read, obsidian).map((claim) =>
                  claim.statement === x ? { ...claim, statement: withoutMarkup(x, obsidian) } : claim,
                );
              // Her "she" read as the name it stands for ("She works at Feedzai." after "Maya Costa
              // …" as "Maya Costa works at Feedzai."), hers as that name is.
              const y = hersAfter(x) ? byName(x, referents.get(kinRead(x))!) : kinRead(x);
              return (
                agentNote !== null
                  ? agentClaims(y, subject, owner, agentNote, others).map((c) => inItsWords(c, y, x))
                  : sentenceClaims(x, subject, owner, others, told.get(x))
              ).map((claim) =>
                claim.statement === x ? { ...claim, statement: withoutMarkup(x, obsidian) } : claim,
              );
            }),
            record.occurredAt,
          );
          return withPlaceSaidAfter(read, record.text);
        }
      }
      // "People/Priya Shah.md": the lines that give her birthday, partner or employer ("Birthday:
      // 14 March", a property line "company: [[Acme]]") hold her slots, and "She lives in Bristol."
      // is said of her; the rest is read as any note is.
      const theirs = person === null ? null : others(person);
      if (person !== null && theirs?.state === 'other')
        return withStarts(
          unique(ps).flatMap((p) =>
            personNotePassage(
              p,
              person,
              theirs,
              { statement: '', subject, predicate: null, owner, quote: '' },
              obsidian,
            ),
          ),
          record.occurredAt,
        );
      // A daily note's title is its day ("2026-11-13"): it says no more of whom it is about than none.
      const untitled = !c.title?.trim() || dayTitle.test(c.title.trim());
      // Her first name alone in a note is hers as likely as another's of that name: nobody's, as
      // before, not a namesake's.
      const herFirst = selfFirstName(ctx.self);
      const notHers = (name: string): OwnerClaim =>
        foldName(name) === herFirst ? { state: 'unresolved' } : others(name);
      return unique(ps.length > 0 ? ps : [whole]).flatMap((p): Claim[] => {
        const plain = {
          statement: withoutMarkup(p, obsidian),
          subject,
          predicate: null,
          owner,
          quote: p,
        };
        // An untitled note's subject is only its source's name ("mcp"): a passage that opens with
        // another person ("Sam prefers the window seat.") is about them, as in a message.
        if (!untitled) return [plain];
        const unmark = (x: string) => withoutMarkup(x, obsidian);
        const ofHer = (word: string) => foldName(word) === herFirst;
        const read = ofAnotherPerson(plain, notHers, unmark, record.sourceName === 'mcp', ofHer);
        // "Sam moved to York in 2023": his home from that year's day.
        return read === null ? [plain] : withPlaceSaidAfter(withStarts(read, record.occurredAt), record.text);
      });
    }
    case 'correction':
      return [];
  }
}

/**
 * A checklist's tasks with their box said in words: "Done: renew passport" for "- [x] renew passport",
 * "To do: send Priya the onboarding doc" for "- [ ] …". The box is the list's, left out of the
 * sentence (split-text.ts), and without it a ticked task read as one still to do. Only a statement of
 * no slot, as the line says it; its quote stays the task's words. A statement that already says so
 * ("- [x] Done: …", "- [ ] TODO call the bank") is left as it is.
 */
function withTaskState(claims: Claim[], text: string): Claim[] {
  const tasks = taskItems(text);
  if (tasks.length === 0) return claims;
  // The task whose words hold `at`: tasks are in text order, so the last that starts at or before it.
  // (A note of thousands of tasks is read in a search, not a scan per claim.)
  const taskAt = (at: number) => {
    let lo = 0;
    let hi = tasks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (tasks[mid]!.start <= at) lo = mid;
      else hi = mid - 1;
    }
    const t = tasks[lo]!;
    return at >= t.start && at < t.end ? t : undefined;
  };
  // A task's words are most claims' quotes: found by them, and the text searched only for the rest.
  const byWords = new Map<string, TaskItem>();
  for (const t of tasks) {
    const words = text.slice(t.start, t.end);
    if (!byWords.has(words)) byWords.set(words, t);
  }
  const taskOf = (quote: string) => {
    const same = byWords.get(quote);
    if (same) return same;
    for (let at = text.indexOf(quote); at >= 0; at = text.indexOf(quote, at + 1)) {
      const task = taskAt(at);
      if (task) return task;
    }
    return undefined;
  };
  return claims.map((claim) => {
    const plain =
      claim.predicate === null &&
      claim.ends === undefined &&
      claim.endsHeld === undefined &&
      claim.restoresHeld === undefined &&
      claim.callsOff === undefined &&
      claim.echoes === undefined;
    if (!plain || claim.quote === '' || saysTaskState.test(claim.statement)) return claim;
    const task = taskOf(claim.quote);
    if (task === undefined) return claim;
    return { ...claim, statement: taskStatement(task.done, claim.statement) };
  });
}
const saysTaskState = /^(?:done|to[ -]?do|finished|completed)\b/iu;

/**
 * A request to the listener after what one says ("…, so keep that in mind for any recipes", "… just so
 * you know", "…, fyi"): the sentence before it, whole, is the statement.
 */
const asideToListener =
  /(?<![\p{L}\p{N}])(?:so\s+|and\s+)?(?:please\s+)?(?:keep\s+(?:that|this|it)\s+in\s+mind|remember\s+(?:that|this)|just\s+so\s+you\s+know|fyi|for\s+your\s+info(?:rmation)?)(?![\p{L}\p{N}])[^.!?]{0,60}[.!]*$/iu;
function withoutAsideToListener(s: string): string {
  const m = asideToListener.exec(s);
  if (m === null) return s;
  let end = m.index;
  while (end > 0 && /[\s,;:—–-]/u.test(s[end - 1]!)) end -= 1;
  const kept = s.slice(0, end);
  // Nothing left to say ("Just so you know"): the sentence as said.
  return kept.split(/\s+/u).length < 2 ? s : kept;
}

/** A statement that drops an idea ("scratch the cat idea"), marked with its words for the replies. */
function withIdeaDropped(c: SaidClaim): SaidClaim {
  const idea = c.predicate === null ? ideaDropped(c.quote) : null;
  return idea === null ? c : { ...c, dropsIdea: idea };
}

/** A question whether what was just said is right: "Is that right?", "Did I get that right?", "Correct?". */
const asksIfRight =
  /^(?:(?:is|was)\s+(?:that|this|it)\s+(?:right|correct|true|accurate)|(?:did|have)\s+I\s+(?:got|get|gotten)\s+(?:that|this|it)\s+right|am\s+I\s+right|right|correct|is\s+that\s+what\s+you\s+(?:want|wanted|mean|meant)(?:\s+to\s+hear)?)(?![\p{L}\p{N}])[^?]*\?$/iu;

/**
 * What an agent's (an assistant's) stated sentence claims. Where it says back a slot of the Brain's
 * person, in the second or third person ("Noted: Ana lives in Braga.", "Got it, you work at Feedzai.",
 * agent-words.ts), that slot of hers, quoting the sentence: as a fact written of her is hers, whoever
 * wrote it. Its citation names the agent's Record. It is no independent evidence, so where another
 * value holds the slot at its time it is the agent's own statement instead (`restated`, admit-claims.ts):
 * it never replaces what she said, nor sits beside her home as a current Memory of no slot. Anything
 * else it says is the agent's own, as another speaker's is. `others`, for an agent's note: a sentence
 * that opens with another person is theirs, as in a note that does not name her.
 */
function agentClaims(
  s: string,
  subject: string,
  owner: OwnerClaim,
  self: SelfEntity,
  others?: (name: string) => OwnerClaim,
  /** Who a name is, in a message: only for another person's slot said back (anothersSlotSaidBack). */
  people?: (name: string) => OwnerClaim,
): Claim[] {
  const slots = restatedSlots(s, self);
  const hers = resolveOwner('self', self);
  // "Reminder: Lucía prefers window seats.": said of her, by her name, it is about her, as an agent's
  // note of "the user" is; it was the agent's ("assistant"), and missing from her Profile.
  if (slots.length === 0) {
    // "Noted, you're allergic to penicillin.": where she said so, a citation of what she said.
    const words = readBackOfSelf(s, self);
    const echoes = words === null ? {} : { echoes: { statement: words, subject: self.name, owner: hers } };
    if (saysOfSelf(s, self))
      return [{ statement: s, subject: self.name, predicate: null, owner: hers, quote: s, ...echoes }];
    // "I'll remember that you're training for a marathon.": hers, in her words, so that her own
    // saying it later joins it; it was the assistant's, and missing from her Profile.
    const noted = notedOfSelf(s, self);
    if (noted !== null)
      return [{ statement: noted, subject: self.name, predicate: null, owner: hers, quote: s, ...echoes }];
    // Only another person's: her own slots an agent restates, never replaces (above).
    const theirs =
      others &&
      ((name: string): OwnerClaim => {
        const o = others(name);
        return o.state === 'other' ? o : { state: 'unresolved' };
      });
    const read = sentenceClaims(s, subject, owner, theirs).map((c) =>
      c.predicate === null && c.quote === s ? { ...c, ...echoes } : c,
    );
    if (theirs) return read.map(agentsWordOfAnother(s));
    const saidBack = people === undefined ? [] : anothersSlotSaidBack(s, subject, owner, people);
    return saidBack.length > 0 ? saidBack : read;
  }
  return slots.map((x) => ({
    statement: valueStatement(self.name, x.predicate, x.value),
    subject: self.name,
    predicate: x.predicate,
    owner: hers,
    quote: s,
    restated: { statement: s, subject, owner },
  }));
}

/**
 * Another person's slot an agent's message says back ("Noted: Marina's birthday is March 3." after "My
 * sister Marina's birthday is on March 3."): that slot's value, restated (agentsWordOfAnother), so it
 * joins her Memory of it and is superseded with it when the value is corrected. As the agent's own
 * statement it stayed current beside the corrected value. Where another value holds the slot it is the
 * agent's statement as before (admit-claims.ts); an ending is none. After a lead ("Noted:", "Got it",
 * "I'll remember that", agent-words.ts `afterReadBackLead`) it may hold an empty slot, as the person's
 * own read back does; without one only the value said before is joined (`joinsOnly`): "Ask Marko. Marko
 * lives in Split." on the agent's word alone is its own statement, no slot of Marko's.
 * Empty where it says no such slot.
 */
function anothersSlotSaidBack(
  s: string,
  subject: string,
  owner: OwnerClaim,
  people: (name: string) => OwnerClaim,
): Claim[] {
  const theirs = (name: string): OwnerClaim => {
    const o = people(name);
    return o.state === 'other' ? o : { state: 'unresolved' };
  };
  const words = afterReadBackLead(s);
  const slots = sentenceClaims(words ?? s, subject, owner, theirs).filter(
    (c) =>
      c.predicate !== null &&
      c.owner.state === 'other' &&
      c.ends === undefined &&
      c.endsHeld === undefined &&
      c.restoresHeld === undefined,
  );
  const restated = slots.map(agentsWordOfAnother(s));
  // Without a lead ("Ask Marko. Marko lives in Split.") it is a read-back only of what was said of them
  // already: it joins that value, else it is the agent's own statement, as before rules-v89.
  return words !== null
    ? restated
    : restated.map((c) =>
        c.restated === undefined ? c : { ...c, restated: { statement: s, subject, owner }, joinsOnly: true },
      );
}

/**
 * Whom one says one quit or left, by name, in a sentence of the speaker's own: "I quit Feedzai today!!",
 * "i left globex", "Finally quit Acme Corp". A name of up to three words, without the time after it.
 */
const quitLead =
  /^(?:I(?:['’]ve|\s+have)?\s+)?(?:(?:just|finally|officially)\s+)?(?:quit|left)\s+(?!(?:my|the|a|an|this|that|it|him|her|them|home|work|school|early)\b)([\p{L}][\p{L}\p{M}'’&.-]*(?:\s+[\p{L}][\p{L}\p{M}'’&.-]*){0,2})/iu;
/** Words after a name that say when or how, not who: "Feedzai today", "Acme for good lol". */
const notOfAName = new Set([
  'today',
  'yesterday',
  'tonight',
  'this',
  'last',
  'finally',
  'officially',
  'for',
  'lol',
  'haha',
]);
function quitName(s: string): string | null {
  const m = quitLead.exec(s);
  if (!m || isQuestion(s)) return null;
  const words = m[1]!.split(/\s+/u);
  const cut = words.findIndex((w) => notOfAName.has(w.toLowerCase()));
  let name = (cut < 0 ? words : words.slice(0, cut)).join(' ');
  while (/[.!,;:]$/u.test(name)) name = name.slice(0, -1);
  return name === '' ? null : name;
}

/**
 * A job one says one lost or left, with the employer's name where given: "got laid off today", "i got
 * laid off from revolut :(", "I was let go from Acme", "got fired", "my last day at revolut was friday",
 * "today was my last day at Globex", "Last day at Span.". An ending of the job held then (of that name,
 * where one is given).
 */
const jobLostLead = new RegExp(
  String.raw`^${newsLeadIns}(?:(?:I|we)\s+)?(?:(?:just|finally|officially)\s+)?(?:(?:got|was|were|been|have\s+been|['’]ve\s+been)\s+(?:laid\s+off|let\s+go(?!\s+of)|fired(?!\s+up)|made\s+redundant)(?![\p{L}\p{N}])(?:\s+(?:from|at|by)\s+(?<from>[\p{L}][\p{L}\p{M}'’&.-]*(?:\s+[\p{L}][\p{L}\p{M}'’&.-]*){0,2}))?|(?:(?:(?:today|yesterday|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\s+(?:was|is)\s+)?(?<my>my\s+))?last\s+day\s+(?:at|with)\s+(?<at>[\p{L}][\p{L}\p{M}'’&.-]*(?:\s+[\p{L}][\p{L}\p{M}'’&.-]*){0,2}))`,
  'iu',
);
/** A doubt or a condition about a job's end: "might", "if", "almost"; "may" in lower case ("May 3" is a day). */
const doubted =
  /(?<![\p{L}\p{N}])(?:[Mm]ight|may|[Mm]aybe|[Cc]ould|[Ii]f|[Aa]lmost|[Nn]early)(?![\p{L}\p{N}])/u;
function jobLost(s: string): { values?: string[] } | null {
  if (!/(?:laid|let\s+go|fired|redundant|last\s+day)/iu.test(s)) return null;
  const m = jobLostLead.exec(s);
  // A doubt or a condition anywhere; a denial only in the news itself ("…, not surprised" is not one).
  if (
    !m ||
    isQuestion(s) ||
    doubted.test(s) ||
    // History: "i got laid off from revolut in 2015", "…years ago", "back in the day".
    /(?<![\p{L}\p{N}])(?:(?:19|20)\d\d|years\s+ago|back\s+in|back\s+then)(?![\p{L}\p{N}])/iu.test(s) ||
    /(?<![\p{L}\p{N}])(?:not|never|didn['’]?t)(?![\p{L}\p{N}])/iu.test(m[0])
  )
    return null;
  const named = m.groups!['from'] ?? m.groups!['at'];
  if (named === undefined) return endsThere(s.slice(m.index + m[0].length)) ? {} : null;
  // "Last day at Span.": the day's news without "my", only of a name ("Last day at the beach" is a
  // holiday's).
  if (m.groups!['at'] !== undefined && m.groups!['my'] === undefined && !/^\p{Lu}/u.test(named)) return null;
  // A last day to come is no job ended yet: "my last day at revolut is next month".
  const from = m.index + m[0].length - named.length;
  if (
    m.groups!['at'] !== undefined &&
    /(?<![\p{L}\p{N}])(?:is|will|be|next|tomorrow|soon|gonna|going)(?![\p{L}\p{N}])/iu.test(s.slice(from))
  )
    return null;
  const words = named.split(/\s+/u);
  const cut = words.findIndex(
    (w) =>
      notOfAName.has(w.toLowerCase()) ||
      /^(?:was|is|on|in|back|will|next|today|yesterday|after|since)$/iu.test(w),
  );
  let name = (cut < 0 ? words : words.slice(0, cut)).join(' ');
  if (!endsThere(s.slice(from + name.length))) return null;
  while (/[.!,;:]$/u.test(name)) name = name.slice(0, -1);
  return name === '' ? {} : { values: [name] };
}

/** When it happened and how one feels, nothing more: "today :(", "was friday", "lol". */
const whenAndHow =
  /^(?:\s*(?:today|yesterday|tonight|this\s+(?:morning|afternoon|evening|week)|last\s+(?:night|week)|(?:on|was)\s+(?:today|yesterday|\p{L}+day)|lol|lmao|ugh|smh|fml|:\(|:'\(|😭|😢|😞|[.!…]))*\s*(?:[,;—–-](?<more>[^]*))?$/iu;
/**
 * What follows a job lost leaves it lost: when and how ("today :(", "was friday", "…, not surprised"),
 * not whose or which it was ("from my side gig", "in a dream", "last year") nor a joke owned ("lol jk",
 * "…, kidding", "NOT").
 */
function endsThere(after: string): boolean {
  const m = whenAndHow.exec(after);
  if (!m) return false;
  const more = m.groups?.['more'];
  return (
    more === undefined ||
    !/(?<![\p{L}\p{N}])(?:jk|j\/k|just\s+kidding|kidding|not\s+really|sike)(?![\p{L}\p{N}])/iu.test(more)
  );
}

/** A sentence about "she" or "he": "she's a nurse", "He works nights". */
const opensWithHeOrShe = /^(?:she|he)(?:['’]s|\s)/iu;
/** A sentence about "her" or "him" by what is theirs: "Her partner is Pedro.", "His birthday is in May." */
const opensWithTheirs = /^(?:she|he|her|his)(?:['’]s|\s)/iu;

/**
 * A passage of a note named after a person (personTitled), read line by line: a line giving a slot of
 * theirs as `key: value` (person-note.ts) holds it, a sentence opening with "she" or "he" is theirs
 * (heOrSheClaims); what lies between is one Memory as the note's other passages are (`rest`'s subject
 * and owner), quoting it whole.
 */
function personNotePassage(
  p: string,
  person: string,
  owner: OwnerClaim,
  rest: Claim,
  obsidian: boolean,
): Claim[] {
  const subject = owner.entity ?? person;
  const out: Claim[] = [];
  let run: Span[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const quote = p.slice(run[0]!.start, run.at(-1)!.end);
    out.push({ ...rest, statement: withoutMarkup(quote, obsidian), quote });
    run = [];
  };
  for (const x of sentences(p)) {
    const slot = personNoteSlot(x.value, person, obsidian);
    const said = opensWithHeOrShe.test(x.value);
    if (slot === null && !said) {
      run.push(x);
      continue;
    }
    flush();
    if (slot !== null) {
      const statement = valueStatement(subject, slot.predicate, slot.value);
      out.push({ statement, subject, predicate: slot.predicate, owner, quote: x.value });
    } else out.push(...heOrSheClaims(x.value, person, owner));
  }
  flush();
  return out;
}

/**
 * Who someone is to the note's writer, said alone: "My younger brother.", "Our neighbour!", "My
 * manager at Lumen Labs.", "My friend from school." (where from, what the relation is, is hers too).
 */
const relationAlone = new RegExp(
  String.raw`^(?:[Mm]y|[Oo]ur)\s+${relation}(?:\s+(?:at|from|in)\s+[^.!?\n]+)?[.!]*$`,
  'u',
);

/**
 * A sentence of a note named after another person (`person`, owned as `them`) that the self writes in
 * the first person, as "People/Rui Sousa.md" keeps him: a `key: value` line holds his slot
 * (person-note.ts); "My younger brother." is read as "Rui Sousa is my younger brother." would be, hers
 * to say; what a sentence says of someone else is theirs (`read`: as her sentence is read). The rest is
 * his where it speaks of her nowhere ("Allergic to peanuts!", "Lives in Porto."): a note of his name
 * says it of him, and her Profile held it. A sentence that says "I", "my" or "we" ("I owe him 20
 * euros.") stays hers: it says something of her, and which of them each word is, the rules cannot tell;
 * unless it opens with a verb of his ("Owes me a dinner.": opensWithTheirVerb).
 */
function sentenceOfTheirNote(
  x: string,
  person: string,
  them: OwnerClaim,
  read: (s: string) => SaidClaim[],
  obsidian: boolean,
): SaidClaim[] {
  const subject = them.entity ?? person;
  const slot = personNoteSlot(x, person, obsidian);
  if (slot !== null) {
    const statement = valueStatement(subject, slot.predicate, slot.value);
    return [{ statement, subject, predicate: slot.predicate, owner: them, quote: x }];
  }
  const s = x.trim();
  if (relationAlone.test(s)) {
    const named = `${person} is ${s[0]!.toLowerCase()}${s.slice(1)}`;
    // The sentence said is the quote: the named one is not in the note.
    return read(named).map((c) => ({ ...c, quote: x }));
  }
  const claims = read(x);
  if (speaksFirstPerson(x) && !opensWithTheirVerb.test(s)) return claims;
  const ofOthers = claims.filter((c) => c.owner.state !== 'self');
  if (ofOthers.length === claims.length) return claims;
  return [{ statement: x, subject, predicate: null, owner: them, quote: x }, ...ofOthers];
}

/**
 * A line of a person's note that opens with a verb of theirs, its subject left out as notes leave it:
 * "Owes me a dinner for the Hvar trip", "Calls me every Sunday", "Has my drill". Theirs though it
 * says "me": the verb says who does it. A past tense is not read so ("Met him at uni" is the writer's).
 */
const opensWithTheirVerb =
  /^(?:has|is|owes|lives|works|loves|likes|hates|knows|calls|texts|keeps|wants|needs|plays|drives|helps|teaches|studies|visits|sends|gives|lends|borrows|owns|misses|makes|cooks|brings|pays|still\s+(?:has|owes|lives|works))\s/iu;

/**
 * The person a note is named after, as a contacts or people folder names notes ("Ana Lima", "Dr. João
 * Silva"): two to four capitalised words of letters alone. A note titled "Trip Ideas" or "Q3 Plan" is
 * no person's (one word, a digit, or a word of a title's: below).
 */
function personTitled(title: string | undefined): string | null {
  const t = title?.trim() ?? '';
  const words = t.split(/\s+/u);
  if (words.length < 2 || words.length > 4) return null;
  if (!words.every((w) => /^(?:\p{Lu}[\p{Ll}\p{M}'’-]+|Dr\.|Mr\.|Mrs\.|Ms\.)$/u.test(w))) return null;
  return words.some((w) => notInAName.has(w.toLowerCase())) ? null : t;
}
const notInAName = new Set(
  `ideas notes note plan plans list lists trip trips meeting meetings journal diary log recipes recipe
   books book reading goals project projects ideas todo tasks shopping gift gifts weekly daily monthly
   review summary agenda minutes draft home work school travel health budget house garden the of and
   for with my our about`.split(/\s+/u),
);

/**
 * A sentence opening with "she" or "he" as said of the person it is ("She works at Santa Maria." after
 * "Inês is a nurse."): where, said with their name, it holds a slot of theirs (otherPersonClaims), that
 * slot's claims quoting the sentence; else the sentence, theirs.
 */
export function heOrSheClaims(
  s: string,
  who: string,
  owner: OwnerClaim,
  /** Who says it, where the person is the Brain's own and someone else says it of her (saidOfSelf). */
  speaker: OwnerClaim = nobody,
): Claim[] {
  const subject = owner.entity ?? who;
  const plain = { statement: s, subject, predicate: null, owner, quote: s };
  const named = byName(s, who);
  if (named === s) return [plain];
  const read = otherPersonClaims(named, () => owner, speaker);
  if (read === null) return [plain];
  return read.map((c) => ({ ...c, subject, quote: s, statement: c.statement === named ? s : c.statement }));
}

/**
 * A "she" or "he" sentence that says the writer too and holds no slot of theirs ("She told me the
 * team offsite is in Porto.", "He and I went to Porto."): the writer's, as "Priya told me …" is
 * (about-another.ts): it is news she was told or did, and which of them each word is, the rules cannot
 * tell; the writer's Profile keeps what she knows.
 */
const toldTheSpeaker = (s: string, claims: readonly Claim[]): boolean =>
  speaksFirstPerson(s) && claims.every((c) => c.predicate === null);

/** A sentence that opens with "she" or "he" said with `who` in its place ("He works at Acme." as "Sam works at Acme."); else as it is. */
const byName = (s: string, who: string): string => s.replace(/^\s*(?:she|he)(?![\p{L}\p{N}])/iu, who);

/**
 * Who a sentence says something of, that a next sentence's "she" or "he" may be: "My sister Maya lives
 * in Madrid.", "Inês is a nurse.", "I had lunch with Tom Baker today."; null for none.
 */
export function heOrSheOf(sentence: string): string | null {
  const slot = otherPersonSlot(sentence);
  const who = slot?.who ?? aboutAnother(sentence) ?? metWithIn(sentence);
  if (who === null) return null;
  // "Rui lives in Porto with Marta.", "He has a daughter, Sofia.", "My dog Max loves Rui.": another
  // name beside them may be the one meant.
  const rest = sentence.replace(who, ' ').replace(slot?.value ?? '\u0000', ' ');
  const words = rest.trim().split(/\s+/u);
  const later = words
    .map((w, i) => ({ w: w.replace(/[^\p{L}\p{M}'’-]/gu, ''), after: words[i - 1]?.toLowerCase() }))
    .slice(1)
    // "My sister Marta works at Siemens in Munich.": a name after "in" is where, not who.
    .filter(({ after }) => after !== 'in')
    .map(({ w }) => w);
  return later.some((w) => /^\p{Lu}\p{Ll}/u.test(w) && !/^I['’]/u.test(w)) ? null : who;
}

/**
 * For each sentence about "she" or "he", the person the sentence just before it said where they live
 * or work ("my sister Maya lives in Madrid."), whom it is about, or whom that sentence's own "she" was;
 * other sentences are not read for it.
 */
function namedJustBefore(said: readonly string[]): Map<string, string> {
  return referentsOf(said).who;
}

/**
 * Whom each sentence's "she" or "he" is (namedJustBefore), and which of those sentences the text
 * itself says take that pronoun (`sure`): where what was said of them before gives it ("My sister
 * Marta …", "Rui, my brother, …"). A pronoun the text gives them otherwise
 * is not theirs: "My brother Rui lives in Porto. She moved to Lisbon.", "Rui lives in Porto with his
 * wife. She …", "Rui lives in Porto. He works at Acme. She …" (pronounFits).
 */
function referentsOf(
  said: readonly string[],
  /** The Brain's person, where another speaker's "she" may be her (selfNamedIn). */
  self: SelfEntity | null = null,
): { who: Map<string, string>; sure: Set<string> } {
  const out = new Map<string, string>();
  const sure = new Set<string>();
  said.forEach((x, i) => {
    // "Her new address is Sporgasse 12." after "My sister Klara moved to Graz.": Klara's, as a "she" is.
    if (i === 0 || out.has(x) || !opensWithTheirs.test(x)) return;
    const before = said[i - 1]!;
    const about = heOrSheOf(before) ?? selfNamedIn(before, self);
    const earlier = said.slice(0, i);
    const pronoun = pronounOf(x)!;
    const aboutTaken = about === null ? null : pronounsTaken(about, earlier, out);
    const named = aboutTaken !== null && takesPronoun(pronoun, aboutTaken) ? about : null;
    // "… He works at Santa Maria. He loves it.": the "he" before is still the one meant; not a "she".
    const still = pronounOf(before) === pronoun ? out.get(before) : undefined;
    const who = named ?? still ?? null;
    if (who === null) return;
    const taken = who === about && aboutTaken !== null ? aboutTaken : pronounsTaken(who, earlier, out);
    out.set(x, who);
    if (taken.sure.has(pronoun)) sure.add(x);
  });
  return { who: out, sure };
}

/**
 * The Brain's person's name, where a sentence says something of her by it with nobody else named
 * beside her ("Ana got a new job.", says-of-self.ts): in someone else's words, what a "she" after it
 * may be. heOrSheOf knows only what holds a slot or what only a person does.
 */
export function selfNamedIn(sentence: string, self: SelfEntity | null): string | null {
  if (self === null || !saysOfSelf(sentence, self)) return null;
  const bare = sentence.replace(/^[\p{L} ]{1,20}:\s+/u, '');
  const whole = self.name.trim();
  const said = foldName(bare.slice(0, whole.length)) === foldName(whole) ? whole : whole.split(/\s+/u)[0]!;
  const rest = bare.slice(said.length).split(/\s+/u);
  // Her name as written: her first name alone is hers only where the Brain knows nobody else by it.
  return rest.some((w) => /^\p{Lu}\p{Ll}/u.test(w)) ? null : bare.slice(0, said.length);
}

/**
 * "Rui is a doctor. She is a nurse.", "Inês moved to Lisbon. She lives in Alfama now.": a "she" whose
 * slot would change what was just said of the person taken for her may be someone else, so it holds no
 * slot: the sentence is a statement of theirs, as said. It made Rui a nurse. Not a move with no day
 * where the text says the pronoun is theirs (`sure`, referentsOf: "My brother Sam lives in Leeds. He
 * moved to York."): it says itself that the home changed, so it is his new one, not a clash. Where
 * nothing says it ("Rui lives in Porto. She moved to Lisbon."), taking the "she" for Rui is a guess,
 * and a wrong one replaces a home that was true: the move holds no slot, and Porto stays his home.
 */
function withoutPronounClashes(claims: SaidClaim[], sure: ReadonlySet<string> = new Set()): SaidClaim[] {
  const clashing = new Set(
    claims.flatMap((c, i) =>
      c.predicate !== null &&
      pronounOf(c.quote) !== null &&
      !(movesOn(c) && sure.has(c.quote)) &&
      clashesWith(c, claims.slice(0, i))
        ? [c.quote]
        : [],
    ),
  );
  if (clashing.size === 0) return claims.map(({ unheld: _, ...c }) => c);
  const done = new Set<string>();
  return claims.flatMap(({ unheld, ...c }) => {
    if (!clashing.has(c.quote)) return [c];
    if (done.has(c.quote)) return [];
    done.add(c.quote);
    const { subject, owner } = unheld ?? c;
    return [{ statement: c.quote, subject, predicate: null, owner, quote: c.quote }];
  });
}

/**
 * "He moved to York.", "She's just moved back to Porto": a "he" or "she" whose home changes by a move
 * said with no day (a day may be before the home said with it: "He moved to York in 2023").
 */
const movesOn = (c: SaidClaim): boolean =>
  c.predicate === 'lives in' &&
  c.startsWhen === undefined &&
  /^\s*(?:she|he)(?:\s+has|['’]s)?\s+(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)(?:\s+back)?\s+to\s/iu.test(
    c.quote,
  );

/** Whether a claim gives another value of a slot one of the claims before it gives. */
export function clashesWith(c: Claim, before: readonly Claim[]): boolean {
  return before.some(
    (e) =>
      e.subject === c.subject &&
      e.predicate === c.predicate &&
      e.ends === undefined &&
      c.ends === undefined &&
      e.statement !== c.statement,
  );
}

/**
 * What a sentence that names someone says of their slots (otherPersonClaims), owned as given; said by
 * `speaker`, where the one named is the Brain's person (saidOfSelf).
 */
export function slotsSaidOf(sentence: string, owner: OwnerClaim, speaker: OwnerClaim = nobody): Claim[] {
  return otherPersonClaims(sentence, () => owner, speaker) ?? [];
}

/** The pronoun a sentence opens with, or whose its first thing is ("Her new address …": "she"), or null. */
const pronounOf = (s: string): 'she' | 'he' | null => {
  const word = /^\s*(she|he|her|his)(?![\p{L}\p{N}])/iu.exec(s)?.[1]?.toLowerCase();
  return word === undefined ? null : word === 'she' || word === 'her' ? 'she' : 'he';
};

/** Who one is to the speaker, by the pronoun they take: "my dad" is a "he", "my sister" a "she". */
const kinPronouns: Readonly<Record<string, 'she' | 'he'>> = Object.fromEntries([
  ...'dad father brother son husband boyfriend bf uncle nephew grandpa grandfather bro stepdad stepfather'
    .split(' ')
    .map((w) => [w, 'he'] as const),
  ...'mom mum mother sister daughter wife girlfriend gf aunt niece grandma grandmother sis stepmom stepmother'
    .split(' ')
    .map((w) => [w, 'she'] as const),
]);
const kinWords = Object.keys(kinPronouns).join('|');
const kinBefore =
  /(?<![\p{L}\p{N}])(?:my|our)\s+(?:(?:little|big|older|younger|best|old|elder|baby)\s+)?(\p{L}+)/giu;

/**
 * Whether a sentence's opening "she" or "he" may be `who`, whom the sentences before it (`before`)
 * name: not where what they say of them gives them the other pronoun (pronounsTaken: "My dad Rui is a
 * doctor. She is a nurse.": she is not Rui). A name alone says no pronoun. `bound` is whom the earlier
 * sentences' own "she" or "he" was, where known.
 */
export function pronounFits(
  sentence: string,
  before: readonly string[],
  who: string,
  bound: ReadonlyMap<string, string> = new Map(),
): boolean {
  const pronoun = pronounOf(sentence);
  return pronoun === null || takesPronoun(pronoun, pronounsTaken(who, before, bound));
}

/** Whether what is said of someone (pronounsTaken) lets `pronoun` be theirs. */
function takesPronoun(pronoun: HeOrShe, { sure, seen }: { sure: Set<HeOrShe>; seen: Set<HeOrShe> }): boolean {
  return sure.has(pronoun) || (!sure.has(otherPronoun[pronoun]) && !seen.has(otherPronoun[pronoun]));
}

const otherPronoun = { she: 'he', he: 'she' } as const;
type HeOrShe = 'she' | 'he';

/**
 * The pronouns what is said of `who` in `said` gives them: `sure`, where it names them by who they are
 * to the speaker ("my brother Rui", "Rui, my brother") or by a word only they can be ("Rui hurt
 * himself"); `seen`, where a sentence about them says a word that may be theirs or someone else's
 * ("Rui lives with his wife", "My dad and Rui …"), or a sentence before called them "he" or "she"
 * (`bound`: whom its pronoun was taken for, itself a reading): enough to doubt the other pronoun, not to
 * be sure of this one ("Rui met her sister. She …" may be the sister).
 */
function pronounsTaken(
  who: string,
  said: readonly string[],
  bound: ReadonlyMap<string, string>,
): { sure: Set<HeOrShe>; seen: Set<HeOrShe> } {
  const sure = new Set<HeOrShe>();
  const seen = new Set<HeOrShe>();
  const name = who.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
  const kin = String.raw`(?:my|our)\s+(?:(?:little|big|older|younger|best|old|elder|baby)\s+)?(\p{L}+)`;
  const kinNaming = new RegExp(
    String.raw`(?<![\p{L}\p{N}])(?:${kin}\s+${name}|${name},?\s+${kin})(?![\p{L}\p{N}])`,
    'iu',
  );
  const names = new RegExp(String.raw`(?<![\p{L}\p{N}])${name}(?![\p{L}\p{N}])`, 'u');
  for (const x of said) {
    const pronoun = pronounOf(x);
    // A "he" taken for them before was itself a reading: it doubts a "she", and is sure of nothing.
    if (pronoun !== null && bound.get(x) === who) seen.add(pronoun);
    if (!names.test(x)) continue;
    const m = kinNaming.exec(x);
    const kinOf = m === null ? undefined : kinPronouns[(m[1] ?? m[2])!.toLowerCase()];
    if (kinOf !== undefined) sure.add(kinOf);
    for (const k of matchesOf(kinBefore, x)) {
      const p = kinPronouns[k[1]!.toLowerCase()];
      if (p !== undefined) seen.add(p);
    }
    if (/(?<![\p{L}\p{N}])himself(?![\p{L}\p{N}])/iu.test(x)) sure.add('he');
    if (/(?<![\p{L}\p{N}])herself(?![\p{L}\p{N}])/iu.test(x)) sure.add('she');
    if (/(?<![\p{L}\p{N}])his(?![\p{L}\p{N}])/iu.test(x)) seen.add('he');
    if (new RegExp(String.raw`(?<![\p{L}\p{N}])her\s+(?:own|${kinWords})(?![\p{L}\p{N}])`, 'iu').test(x))
      seen.add('she');
  }
  return { sure, seen };
}

/** How many sentences after a story of a past partner its "he" or "we" may still be that partner. */
const storyReach = 4;

/**
 * For each sentence of a Record, the partner of the past one of the storyReach sentences before it
 * told of ("I dated Jake in college. He dumped me."), else null. Further on, the story has moved on.
 */
function toldBefore(said: readonly string[]): Map<string, PastPartner | null> {
  const out = new Map<string, PastPartner | null>();
  let last: { partner: PastPartner; at: number } | null = null;
  said.forEach((x, i) => {
    if (!out.has(x)) out.set(x, last !== null && i - last.at <= storyReach ? last.partner : null);
    const partner = pastPartnerTold(x);
    if (partner !== null) last = { partner, at: i };
  });
  return out;
}

/**
 * What one stated sentence of someone's claims: a plain statement, or where a known person says where
 * they live or work (slot-sentences.ts) or their favourite something, the slot it holds, so a later
 * value replaces it.
 */
function sentenceClaims(
  s: string,
  subject: string,
  owner: OwnerClaim,
  others?: (name: string) => OwnerClaim,
  /** A partner of the past an earlier sentence of the same Record told of (toldBefore). */
  told: PastPartner | null = null,
): SaidClaim[] {
  const claims = claimsOfSentence(s, subject, owner, others, told);
  // The sentence's own claim, whoever's it is ("Inês cancelled her trip" is hers), may say a task, a
  // plan changed or a deed done; read once the rest is.
  const whole = (c: SaidClaim) =>
    c.predicate === null && c.quote === s && !c.callsOff && !c.endsHeld && !c.restoresHeld;
  if (!claims.some(whole)) return claims;
  // "remind me to water the tomatoes": a task, as a checklist's box says one.
  // "I still need to buy the vase and call the bank": one for each task it lists.
  const tasks = tasksSaid(s);
  if (tasks.length > 0)
    return claims.flatMap((c) =>
      whole(c)
        ? tasks.map((at) => {
            const quote = s.slice(...at);
            return { ...c, statement: taskStatement(false, quote), quote };
          })
        : [c],
    );
  // "The dentist moved my appointment to Friday", "I cancelled the dentist": in place of the plan it
  // changes. "I renewed my passport today!": a deed, which may do an open task.
  const changed = planChanged(s);
  const done = taskDone(s);
  // "I don't drink tea anymore": a taste or habit of the speaker's over. Only a known speaker's: an
  // unresolved one has no earlier word of its own to end.
  // A quitting "for" a name alone is read as for that person's sake here, and kept only where the
  // Brain knows a person by it (forKnownPeople).
  const ended = owner.state === 'unresolved' ? null : tasteEnded(s, () => true);
  // "I'm back on coffee": a taste of the speaker's said over, taken up again.
  const resumed = owner.state === 'unresolved' || ended !== null ? null : tasteResumed(s);
  // "We are not doing SQLite after all": a choice of the speaker's off, as a taste is.
  const dropped = owner.state === 'unresolved' ? null : choiceDropped(s);
  // "Turns out I'm not allergic to walnuts": a state of the speaker's said not to be so.
  const denied = owner.state === 'unresolved' ? null : stateDenied(s);
  if (
    changed === null &&
    done === null &&
    ended === null &&
    resumed === null &&
    dropped === null &&
    denied === null
  )
    return claims;
  return claims.map((c) =>
    whole(c)
      ? {
          ...c,
          ...(changed !== null ? { changesPlan: changedBy(changed, others) } : {}),
          ...(done !== null ? { doesTask: done } : {}),
          ...(ended !== null && c.owner.state !== 'unresolved' ? { endsTaste: ended } : {}),
          ...(resumed !== null && c.owner.state !== 'unresolved' ? { resumesTaste: resumed } : {}),
          ...(dropped !== null && c.owner.state !== 'unresolved' ? { dropsChoice: dropped } : {}),
          ...(denied !== null && c.owner.state !== 'unresolved' ? { deniesState: denied } : {}),
        }
      : c,
  );
}

/** A plan changed, with who the person named is ("Inês can't make it", "Sam called off dinner"). */
function changedBy(change: PlanChange, others?: (name: string) => OwnerClaim): Claim['changesPlan'] {
  const name = change.person ?? change.by;
  return name !== undefined && others !== undefined ? { ...change, of: others(name) } : change;
}

/** What one sentence says (sentenceClaims), before a task, a plan changed or a deed done is read. */
function claimsOfSentence(
  s: string,
  subject: string,
  owner: OwnerClaim,
  others?: (name: string) => OwnerClaim,
  told: PastPartner | null = null,
): SaidClaim[] {
  const plain = { statement: s, subject, predicate: null, owner, quote: s };
  // A home or an employer said by someone known holds a slot: a new one replaces the old.
  if (owner.state === 'unresolved') return [plain];
  // "Hi, I'm Tomislav, most people call me Tom.": the name people call her by, another name of hers a
  // question may ask by (nickname.ts); the sentence a Memory of its own only where it says more.
  // Where it says more ("My friends call me Tom and I just moved to Split."), what else it says is read
  // as it would be without it: the move holds her home beside the nickname.
  const nickname = nicknameSaid(s, subject);
  if (nickname !== null) {
    const statement = valueStatement(subject, 'nickname', nickname.value);
    const quote = s.slice(...nickname.clause);
    const held = { statement, subject, predicate: 'nickname', owner, quote };
    return nickname.more ? [...claimsBesideNickname(s, subject, owner, others, told), held] : [held];
  }
  return claimsBesideNickname(s, subject, owner, others, told);
}

/** What one sentence of a known person's says besides a nickname (claimsOfSentence). */
function claimsBesideNickname(
  s: string,
  subject: string,
  owner: OwnerClaim,
  others: ((name: string) => OwnerClaim) | undefined,
  told: PastPartner | null,
): SaidClaim[] {
  const plain = { statement: s, subject, predicate: null, owner, quote: s };
  // "quick intro: software engineer at globex, live in lisbon": each clause as said in full, its slot
  // quoting it. No Memory of the whole sentence beside them: after a move it would still say Lisbon.
  const intro = introClauses(s);
  const read = intro === null ? [] : intro.map((c) => introClaims(c, s, subject, owner));
  const introduced = read.flat();
  // Where a clause holds nothing, the sentence is a Memory too, so what it says is not lost.
  if (introduced.length > 0) return read.some((c) => c.length === 0) ? [plain, ...introduced] : introduced;
  const { slots, ended, rest, after } = slotSentences(s);
  if (slots.length === 0 && ended === null) {
    // "My favourite colour is blue now.": one value at a time, so a new one replaces the old.
    const a = attributeSentence(s) ?? occupationSaid(s);
    // "I'm not vegan anymore, I eat fish now.": the ending said whole before a clause of its own, which
    // is read as a sentence of its own ("…, I'm pescatarian now" holds the diet), as a later clause's
    // attribute leaves what comes before it (clauseAttributes).
    const head = a === null ? endingBeforeClause(s) : null;
    if (head !== null) {
      const { predicate, value } = head.ended;
      const statement = endedStatement(subject, predicate, value);
      const ending = { statement, subject, predicate, owner, quote: head.clause, ends: value };
      return [ending, ...sentenceClaims(head.rest, subject, owner, others, told)];
    }
    // "We broke up": the sentence, and the end of whichever partner holds the slot then.
    const parting = a === null ? partingSaid(s, told) : null;
    if (parting !== null) return [plain, ...heldEndings(parting, plain)];
    // "We got back together": the sentence, and the partner a parting ended holds the slot again.
    const reunion = a === null ? reunionSaid(s, told) : null;
    if (reunion !== null) return [plain, ...heldEndings(reunion, plain, 'restoresHeld')];
    // "I quit Feedzai today": the sentence, and the end of the job where Feedzai holds it (one quits
    // Twitter or a choir as well: where nothing of that name holds the job, it ends nothing).
    const quit = a === null ? quitName(s) : null;
    if (quit !== null) return [plain, ...heldEndings([{ predicate: 'works at', values: [quit] }], plain)];
    // "the porto move is off": the sentence, which withdraws the home it was to bring.
    // "got laid off today", "my last day at revolut was friday": the end of the job held then.
    const lost = a === null ? jobLost(s) : null;
    if (lost !== null) return [plain, ...heldEndings([{ predicate: 'works at', ...lost }], plain)];
    const off = a === null ? planCalledOff(s) : null;
    if (off !== null) return [{ ...plain, callsOff: off }];
    if (a === null) {
      // "i have a cat named Pimenta and my boyfriend is Rui", "i eat meat again, not vegetarian
      // anymore": a later clause that says an attribute whole, each its slot's claim quoting the clause,
      // and the sentence's own Memory what it says before them: it must not outlive the boyfriend.
      const clauses = clauseAttributes(s, subject, owner);
      const ended = clauses.claims.some((c) => c.ends !== undefined);
      // What it says before them is read as a sentence of its own ("i'm vegetarian and my boyfriend is
      // Rui": the diet too), with no ending of its own beside the clause's.
      if (clauses.before !== null)
        return [
          ...sentenceClaims(clauses.before, subject, owner, others, told).filter(
            (c) => !(ended && c.endsHeld !== undefined),
          ),
          ...clauses.claims,
        ];
      const kept = others
        ? (possessedClaims(s, subject, owner, others) ??
          endingSaidOfSelf(plain, others) ??
          otherPersonClaims(s, others, owner) ??
          anotherPersonsClaims(plain, others) ?? [plain])
        : [plain];
      // "i eat meat again": whichever meatless diet holds ends.
      const meat = eatsMeat.test(s) ? heldEndings([{ predicate: 'diet', values: meatless }], plain) : [];
      const also = [...clauses.claims, ...(ended ? [] : meat)];
      // "went hiking with my wife Sarah": the sentence, and the relation it names in passing, quoting
      // "my wife Sarah" ("My partner Priya's birthday is March 4." may be mended while she is his).
      const beside = relationNamedBeside(s);
      const kin = kinClaims(s, subject, owner);
      if (beside === null) return [...kept, ...also, ...kin];
      const statement = valueStatement(subject, beside.predicate, beside.value);
      const quote = s.slice(...beside.said);
      return [...kept, ...also, { statement, subject, predicate: beside.predicate, owner, quote }, ...kin];
    }
    // "I'm not vegan anymore": it ends vegan where vegan holds the diet, and says no new one.
    if (a.ends) {
      const statement = endedStatement(subject, a.predicate, a.value);
      const ending = { statement, subject, predicate: a.predicate, owner, quote: s, ends: a.value };
      // "I'm no longer in a relationship" ends whichever partner holds the slot then.
      if (a.predicate !== 'relationship status') return [ending];
      return [ending, ...heldEndings(partnersEndedBy(a.value, true), plain)];
    }
    // "My dentist is Dr. Sousa, my appointment is on Tuesday.": the one who holds the role, and what
    // the clause after them says, a Memory of its own (a move of the appointment finds it there).
    const next = a.own ? null : clauseAfterValue(s, a.value);
    if (next !== null) {
      const role = { statement: valueStatement(subject, a.predicate, a.value), quote: next.before };
      // A plan of the speaker's is said in the whole sentence's words, which name whose it is ("my
      // dentist … my appointment"): what moves it later names the role, not the clause alone.
      const rest =
        opensWithHeOrShe.test(next.clause) && others
          ? claimsOfTheirs(next.clause, a.value, others(a.value), others)
          : sentenceClaims(next.clause, subject, owner, others, told).map((c) =>
              c.predicate === null && c.statement === next.clause ? { ...c, statement: s } : c,
            );
      return [{ ...role, subject, predicate: a.predicate, owner }, ...rest];
    }
    // "I'm married to Tom": the slot's Memory in the sentence's own words, which say more than the value.
    const statement = a.own ? s : valueStatement(subject, a.predicate, a.value);
    const status = { statement, subject, predicate: a.predicate, owner, quote: s };
    // "I'm single now" ends whichever partner holds the slot then.
    if (a.predicate !== 'relationship status') return [status];
    return [status, ...heldEndings(partnersEndedBy(a.value), plain)];
  }
  // "I'm a nurse at Santa Maria": the job too, quoting its own words, so a new employer leaves it.
  const jobs: SaidClaim[] = slots.flatMap((slot) => {
    const said = slot.predicate === 'works at' ? occupationBeforeEmployer(s, slot) : null;
    if (said === null) return [];
    const { predicate, value } = said.job;
    const statement = valueStatement(subject, predicate, value);
    const when = slot.when !== undefined ? { startsWhen: slot.when } : {};
    return [{ statement, subject, predicate, owner, quote: s.slice(...said.quote), ...when }];
  });
  return [
    ...slotClaims(s, subject, owner, { slots, ended, rest, after }),
    ...jobs,
    ...kinClaims(s, subject, owner),
  ];
}

/**
 * The clause of its own after a person's name that holds a role ("My dentist is Dr. Sousa, my
 * appointment is on Tuesday", "…, she is great"): the sentence up to the name, and the clause after its
 * comma, where that opens with what is the speaker's ("my", "our") or the person ("she", "he") and
 * says a statement. Not "we" or "I": "My partner is Jordan, we've been together 4 years" says the role
 * again, and stays its quote. Null where the value is no name, or nothing of that shape follows it.
 */
function clauseAfterValue(s: string, value: string): { before: string; clause: string } | null {
  const at = s.indexOf(value);
  if (at < 0 || !/^(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?\p{Lu}/u.test(value)) return null;
  const m = /^,\s+(?=(?:my|our|she|he)(?![\p{L}\p{N}]))/iu.exec(s.slice(at + value.length));
  if (m === null) return null;
  const clause = s.slice(at + value.length + m[0].length);
  if (clause.split(/\s+/u).length < 3 || !isStatement(clause)) return null;
  return { before: s.slice(0, at + value.length), clause };
}

/**
 * "My sister Marta started a new job at Siemens": who Marta is to the speaker, a Memory of no slot
 * beside what the sentence says ("Rui's sister is Marta"), the speaker's, about Marta, quoting "My
 * sister Marta". One has several sisters, so none replaces another. The job alone was derived, and once
 * it was superseded nothing said Marta was his sister.
 */
function kinClaims(s: string, subject: string, owner: OwnerClaim): SaidClaim[] {
  const said = kinNamedBeside(s);
  if (said === null || owner.state === 'unresolved' || said.who === subject) return [];
  const statement = `${subject}'s ${said.kin} is ${said.who}`;
  return [{ statement, subject: said.who, predicate: null, owner, quote: s.slice(...said.said) }];
}

/** The claims of a sentence that holds slots (slot-sentences.ts), read as slotSentences read it. */
function slotClaims(
  s: string,
  subject: string,
  owner: OwnerClaim,
  { slots, ended, rest, after }: ReturnType<typeof slotSentences>,
): SaidClaim[] {
  const plain = { statement: s, subject, predicate: null, owner, quote: s };
  // What follows the home, when it is a statement of its own (not a question, not a courtesy).
  const joined = after ? s.slice(...after) : null;
  const tail = joined !== null && isStatement(joined) && !isCourtesy(joined) ? joined : null;
  // Where the sentence says more than one thing, each slot is quoted by its own clause, so that
  // when it is replaced, what else the sentence says is still quoted without the old value.
  const own = slots.length + (ended ? 1 : 0) > 1 || tail !== null;
  const held: SaidClaim[] = slots.map((slot) => {
    const quote = own ? s.slice(...slot.clause) : s;
    // "I'm moving out of my flat on Ilica 42 next Saturday": the home in the words that say more of it.
    const statement = slot.own ? quote : clauseStatement(subject, slot.predicate, slot.value);
    const when = slot.when !== undefined ? { startsWhen: slot.when } : {};
    return { statement, subject, predicate: slot.predicate, owner, quote, ...when };
  });
  // "I no longer work at Acme": it ends Acme where Acme holds the job, and says no new one.
  if (ended)
    held.push({
      statement: endedStatement(subject, ended.predicate, ended.value),
      subject,
      predicate: ended.predicate,
      owner,
      quote: own ? s.slice(...ended.clause) : s,
      ends: ended.value,
    });
  // "I live in Porto and my dentist is Carla Silva.": the dentist is a Memory of its own, without
  // the home ("... and opened a bakery" joined otherwise keeps the whole sentence).
  if (tail !== null) return [...held, { ...plain, statement: tail, quote: tail }];
  if (rest < 3) return held;
  // "I live in Lisbon with my partner Tom": the sentence restates the home, so it is the
  // home's version itself, in its own words. A Memory of its own beside the slot stayed current,
  // saying Lisbon, after a move or a correction had superseded the slot.
  if (held.length === 1 && ended === null) return [{ ...held[0]!, statement: s }];
  // "I don't work at Acme anymore, they went bust last spring": the ending itself, quoting the whole
  // sentence. Its statement keeps the words an ending is told by (endedHead: the engine places it and
  // the UI draws it by them); a Memory of the sentence beside it stayed current after she was hired
  // again.
  if (held.length === 1) return [{ ...held[0]!, quote: s }];
  // "I live in Lisbon with Tom and I work at Globex with his sister": each slot is its own part of the
  // sentence, up to the next slot's clause, and that part its version in its own words where it reads
  // back to the value alone ("I live in Lisbon with Tom"). A Memory of the whole sentence beside them
  // stayed current, saying Lisbon, after a move.
  const clauses = [...slots, ...(ended ? [ended] : [])];
  return sentenceParts(s, clauses).map((part, i) => {
    const claim = held[i]!;
    const more = wordCount(part) > wordCount(s.slice(...clauses[i]!.clause));
    const own = claim.ends === undefined && more && readsBack(part, claim);
    return { ...claim, quote: part, ...(own ? { statement: part } : {}) };
  });
}

/** A claim as its sentence says it: a value said to come with its day in the sentence's words. */
type SaidClaim = Claim & {
  startsWhen?: string;
  /**
   * Whose the sentence is where its slot is not held (withoutPronounClashes): the speaker's, for a
   * "she" read as the Brain's person in someone else's words; else the claim's own subject and owner.
   */
  unheld?: Pick<Claim, 'subject' | 'owner'>;
};

/**
 * "I start on December 1st", "start date is Dec 1", "I'm starting there on January 11", "My first day
 * there is January 11", "Starting 7 September", "Data analyst, starting 7 September": when the job a sentence before names begins ("there" is that employer), and the
 * role said with the day ("… as a senior data engineer").
 */
const startsOn = new RegExp(
  String.raw`^(?:and\s+|so\s+)?(?:I(?:\s+|['’]ll\s+|\s+will\s+)start(?:\s+there|\s+work(?:ing)?)?|I(?:['’]m|\s+am)\s+starting(?:\s+there|\s+work)?|(?:my\s+)?start\s+date\s+is|(?:my\s+)?first\s+day(?:\s+there)?\s+(?:is|will\s+be)|(?:(?<title>\p{L}[\p{L}-]*(?:\s+\p{L}[\p{L}-]*){0,3}),\s+)?starting)\s+(?<when>(?:on\s+)?[\p{L}\p{N}][\p{L}\p{N} ,]{0,30}?)(?<role>,?\s+as\s+(?:a|an|the)\s+[\p{L}-]+(?:\s+[\p{L}-]+){0,3})?${chatEnd}`,
  'iu',
);

/**
 * A new job, and the sentence after it that says when it starts ("I accepted the offer from Helix Bio! I
 * start on December 1st."): the job starts that day (withStarts), and the sentence is no Memory of its
 * own beside it. It held from the message's day, and the job it replaces ended then. A role said with
 * the day ("I start there on 11 January as a senior data engineer") is the occupation from that day,
 * quoting that sentence; one that names no job leaves the sentence a Memory of its own.
 */
function startSaidNext(claims: SaidClaim[], occurredAt: string): SaidClaim[] {
  const jobs = claims.filter((c) => c.predicate === 'works at' && c.ends === undefined && !c.endsHeld);
  if (jobs.length !== 1 || jobs[0]!.startsWhen !== undefined) return claims;
  const at = claims.indexOf(jobs[0]!);
  // The next sentence's: a role said in the job's own ("… at Spotify as a senior designer.") is between.
  const nextAt = claims.findIndex((c, i) => i > at && !jobs[0]!.quote.includes(c.quote));
  const next = nextAt < 0 ? undefined : claims[nextAt];
  const m = next?.predicate === null ? startsOn.exec(next.quote.trim()) : null;
  const day = m?.groups!['when'];
  // Only a day to come that reads as one: "I start at 9 every day" leaves the job as it was.
  if (day === undefined || startDay(day, occurredAt) === null) return claims;
  // "Data analyst, starting 7 September.": the role before the day, only where it names one.
  const title = m!.groups!['title'];
  if (title !== undefined && (m!.groups!['role'] !== undefined || occupationAs(`as a ${title}`) === null))
    return claims;
  const job = { ...jobs[0]!, startsWhen: day };
  const said = title === undefined ? m!.groups!['role'] : `as a ${title}`;
  const role = said === undefined ? null : occupationAs(said.replace(/^,/u, ''));
  const occupation: SaidClaim[] =
    role === null
      ? []
      : [
          {
            statement: valueStatement(job.subject, role.predicate, role.value),
            subject: job.subject,
            predicate: role.predicate,
            owner: job.owner,
            quote: next!.quote,
            startsWhen: day,
          },
        ];
  const kept = said !== undefined && role === null ? [next!] : occupation;
  // The job's own sentence's role begins with it.
  const begun = (c: SaidClaim, i: number) =>
    i > at && i < nextAt && c.predicate === 'occupation' && c.startsWhen === undefined;
  return claims.flatMap((c, i) =>
    i === at ? [job] : i === nextAt ? kept : begun(c, i) ? [{ ...c, startsWhen: day }] : [c],
  );
}

/**
 * "I'm moving out of my flat on Ilica 42 next Saturday. The new flat is at Vlaška 17 in Zagreb.": the
 * new flat, said right after the move out of a home by its address, is the speaker's home from the day
 * she moves (the one she leaves holds until then), in its own words where they say more. It was a
 * statement of no slot, which stayed current beside every later address.
 */
function newHomeOnMoveDay(claims: SaidClaim[]): SaidClaim[] {
  const at = claims.findIndex((c) => c.predicate === 'lives in' && c.ends === undefined);
  const leaving = at < 0 ? null : movingOutOf(claims[at]!.quote);
  const next = claims[at + 1];
  if (leaving === null || next === undefined || next.predicate !== null) return claims;
  const [left, said] = [claims[at]!, next];
  if (said.subject !== left.subject || said.owner.state !== left.owner.state) return claims;
  const home = newHomeSaid(said.quote, true);
  if (home === null) return claims;
  const moved: SaidClaim = {
    ...said,
    predicate: 'lives in',
    statement: home.own ? said.statement : clauseStatement(said.subject, 'lives in', home.value),
    ...(leaving.when !== undefined ? { startsWhen: leaving.when } : {}),
  };
  return claims.map((c) => (c === said ? moved : c));
}

/**
 * A job the same message says twice, once as news and once with the day it starts ("I accepted an offer
 * from Figma as a designer. … I start at Figma on January 4."): it starts that day, and so does the
 * occupation said with the news. The news alone held Figma from the message's day, ending the job
 * still held until then.
 */
function startsWithItsDay(claims: Claim[]): Claim[] {
  const scheduled = claims.filter((c) => c.predicate === 'works at' && c.startsAt !== undefined && !c.ends);
  if (scheduled.length === 0) return claims;
  const dayOf = (c: Claim) => scheduled.find((x) => x.subject === c.subject && sameSlotValue(x, c))?.startsAt;
  const news = new Map<Claim, string>();
  for (const c of claims)
    if (c.predicate === 'works at' && c.startsAt === undefined && !c.ends && !c.endsHeld) {
      const day = dayOf(c);
      if (day !== undefined) news.set(c, day);
    }
  if (news.size === 0) return claims;
  return claims.map((c) => {
    const day =
      news.get(c) ??
      // The occupation said in the news's sentence ("… as a senior product designer").
      (c.predicate === 'occupation' && c.startsAt === undefined
        ? [...news].find(([job]) => job.subject === c.subject && job.quote.includes(c.quote))?.[1]
        : undefined);
    return day === undefined ? c : { ...c, startsAt: day };
  });
}

/** "my last day at Dell is December 18": the employer and the day, in a sentence of the speaker's own. */
const lastDayAhead =
  /(?<![\p{L}\p{N}])[Mm]y\s+last\s+day\s+(?:at|with)\s+(?<at>\p{Lu}[\p{L}\p{M}'’&.-]*(?:\s+\p{Lu}[\p{L}\p{M}'’&.-]*){0,2})\s+(?:is|will\s+be)\s+(?<when>(?:on\s+)?[\p{L}\p{N}][\p{L}\p{N} ]{0,24}?)(?=\s+and\s|\s*[,.;!—–-]|\s*$)/u;

/**
 * A last day at a job said to come ("My last day at Dell is December 18 and I start at Figma on January
 * 4."): the end of that job, where it is the one held, from the day after (withHeldEndings), so the job
 * holds until then and no longer. Once per employer; not where the sentence doubts it ("might", "if").
 */
function lastDaysAhead(claims: readonly Claim[], occurredAt: string): Claim[] {
  const out: Claim[] = [];
  for (const c of claims) {
    if (c.owner.state !== 'self' || doubted.test(c.quote)) continue;
    const m = lastDayAhead.exec(c.quote);
    const day = m === null ? null : startDay(m.groups!['when']!, occurredAt);
    // Its end is the next midnight: "is today" ends it tonight; a day gone is jobLost's.
    const ends = day === null ? NaN : Date.parse(day) + 86_400_000;
    if (m === null || !(ends > Date.parse(occurredAt))) continue;
    const at = m.groups!['at']!;
    if (out.some((x) => x.endsHeld?.values?.[0] === at)) continue;
    out.push({
      statement: endedStatement(c.subject, 'works at', at),
      subject: c.subject,
      predicate: 'works at',
      owner: c.owner,
      quote: m[0],
      endsHeld: { values: [at] },
      startsAt: new Date(ends).toISOString(),
    });
  }
  return out;
}

/** A job or a home said in place of a plan (called-off.ts `saysPlansChanged`) withdraws the plans of its slot. */
function withPlansChanged(c: Claim, text: string): Claim {
  const planned =
    (c.predicate === 'lives in' || c.predicate === 'works at') && c.ends === undefined && !c.endsHeld;
  return planned && saysPlansChanged(text, c.quote) ? { ...c, plansChanged: true } : c;
}

/**
 * Claims with the day a value said to come starts read (start-day.ts) from the Record's time: a day
 * after it, or one gone ("we moved to porto 2 weeks ago"), is the value's start (`startsAt`); the day
 * itself holds from when it was said. One no
 * calendar has, or before the Record ("starting at Acme on March 3 2020" said in 2024), holds no slot:
 * the sentence is a statement.
 */
function withStarts(claims: SaidClaim[], occurredAt: string): Claim[] {
  return claims.map(({ startsWhen, ...claim }) => {
    if (startsWhen === undefined) return claim;
    const day = startDay(startsWhen, occurredAt);
    if (day === null)
      return {
        statement: claim.quote,
        subject: claim.subject,
        predicate: null,
        owner: claim.owner,
        quote: claim.quote,
      };
    // Said on the day it starts ("first day at Stripe today"), it holds from when it was said.
    const [starts, said] = [Date.parse(day), Date.parse(occurredAt)];
    return starts > said || starts + 86_400_000 <= said ? { ...claim, startsAt: day } : claim;
  });
}

/**
 * A sentence that takes back the one before it: a joke owned or a doubt, said alone ("jk lol", "not
 * really", "i think"), a "but" that unsays it ("But not for long.", "But we're working on it."), or
 * getting back together after a parting. "Not really a fan of the commute.", "Kidding aside, it hurt.",
 * "But I'm still looking for a flat." or "I don't think we'll get back together" take nothing back.
 */
const aside = String.raw`(?:[\s.!?,…]|lol|lmao|haha)*`;
const alone = new RegExp(
  String.raw`^(?:(?:lol|lmao|haha|ok|okay|well)[\s,.!]*)*(?:jk|j/k|just\s+kidding|kidding|not\s+really|not|nope|sike|psych|i\s+think|i\s+guess|maybe|idk|or\s+not|sort\s+of|kinda)${aside}$`,
  'iu',
);
const butNot =
  /^but\s+(?:not(?![\p{L}\p{N}])|(?:we|i)(?:['’]re|\s+are|['’]m|\s+am)\s+(?:working\s+on\s+it|trying)(?![\p{L}\p{N}])|it['’]?s\s+complicated(?![\p{L}\p{N}]))/iu;
/** "jk lol, jordan just ate the last of my biscoitos": a next sentence that opens by taking it back. */
const opensTakingBack =
  /^(?:(?:lol|lmao|haha)[\s,.!]*)*(?:jk|j\/k|just\s+kidding|sike|psych)(?:\s*[,.!…]|\s+(?:lol|lmao|haha)(?![\p{L}\p{N}]))/iu;
const takesBack = (next: string): boolean =>
  alone.test(next) ||
  opensTakingBack.test(next) ||
  butNot.test(next) ||
  reunionSaid(next) !== null ||
  /^(?:(?:and|then|but)\s+)*(?:we\s+)?got\s+back\s+together(?![\p{L}\p{N}])/iu.test(next);

/**
 * A value's ending said whole in a sentence's first clause, a statement of the speaker's own after it
 * ("I'm not vegan anymore, I eat fish now."): the ending and the clause that says it. Not where what
 * follows is not hers ("…, according to my sister"), takes it back or asks ("…, jk", "…, no wait, I
 * still am", "…, is that weird?"), nor a partner's (parting.ts reads those whole).
 */
function endingBeforeClause(s: string): { ended: AttributeSentence; clause: string; rest: string } | null {
  const cut = /(?:,|;|\s[—–-])\s+(?=\S)/u.exec(s);
  if (cut === null) return null;
  const clause = s.slice(0, cut.index);
  const rest = s.slice(cut.index + cut[0].length);
  const ended = attributeSentence(clause);
  if (ended?.ends !== true || ended.predicate === 'relationship status') return null;
  return opensWithSpeaker.test(rest) && !stillSo.test(rest) && isStatement(rest) && !takesBack(rest)
    ? { ended, clause, rest }
    : null;
}

/** "I still am", "I'm kidding", "I was joking": a next clause that keeps what was said ended. */
const stillSo = /(?<![\p{L}\p{N}])(?:still\s+(?:am|do|is)|kidding|joking|jk)(?![\p{L}\p{N}])/iu;

/** Endings of values the sentence names as a partner or none (parting.ts), each a claim of its slot. */
const heldEndings = (
  endings: readonly HeldEnding[],
  plain: Claim,
  as: 'endsHeld' | 'restoresHeld' = 'endsHeld',
): Claim[] => endings.map(({ predicate, ...held }) => ({ ...plain, predicate, [as]: held }));

const wordCount = (s: string) => s.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/**
 * The slots one clause of an introduction holds ("software engineer at globex": the job at Globex), read
 * in the first of its full readings that holds any, quoting the clause alone.
 */
function introClaims(c: IntroClause, s: string, subject: string, owner: OwnerClaim): SaidClaim[] {
  const quote = s.slice(...c.at);
  for (const reading of c.readings) {
    const slots = slotSentences(reading).slots;
    if (slots.length > 0)
      return slots.map((slot) => ({
        statement: clauseStatement(subject, slot.predicate, slot.value),
        subject,
        predicate: slot.predicate,
        owner,
        quote,
        ...(slot.when !== undefined ? { startsWhen: slot.when } : {}),
      }));
    const a = attributeSentence(reading) ?? occupationSaid(reading);
    if (a !== null && a.ends === undefined)
      return [
        {
          statement: valueStatement(subject, a.predicate, a.value),
          subject,
          predicate: a.predicate,
          owner,
          quote,
        },
      ];
  }
  return [];
}

/**
 * "Tom's birthday is March 4", "Maya's phone number is …": an attribute said of a named person holds
 * that person's slot, as "my birthday is …" holds the speaker's. Of the Brain's own person only in her
 * own words (a correction she writes as a note names herself so): what others say of her is not hers
 * to hold. Null when the sentence says no such attribute.
 */
function possessedClaims(
  s: string,
  subject: string,
  owner: OwnerClaim,
  others: (name: string) => OwnerClaim,
): Claim[] | null {
  const turning = birthdayTurning(s);
  // "My dad turns 70 on March 12": the speaker's father's birthday, a slot of theirs (one has one
  // father), in the engine's words ("Rui's father's birthday is March 12"), quoting the sentence.
  if (turning !== null && 'parent' in turning) {
    if (owner.state === 'unresolved') return null;
    const predicate = `${turning.parent}'s birthday`;
    return [
      { statement: valueStatement(subject, predicate, turning.value), subject, predicate, owner, quote: s },
    ];
  }
  // "Ana turns 30 on 12 March": her birthday, as "Ana's birthday is 12 March" holds it.
  const said =
    possessedAttribute(s) ??
    (turning === null
      ? null
      : { who: turning.who, attribute: { predicate: 'birthday', value: turning.value } });
  if (said === null) return null;
  const whose = others(said.who);
  const { predicate, value } = said.attribute;
  if (whose.state === 'self') {
    if (owner.state === 'self')
      return [{ statement: valueStatement(subject, predicate, value), subject, predicate, owner, quote: s }];
    // "Ana's birthday is May 3rd" in Rui's words: her birthday as he says it.
    const by = saidOfSelfBy(whose, owner);
    return by === null ? null : [saidOfSelf({ predicate, value }, whose, by, s)];
  }
  if (whose.state !== 'other') return null;
  return [
    {
      statement: valueStatement(said.who, predicate, value),
      subject: said.who,
      predicate,
      owner: whose,
      quote: s,
    },
  ];
}

/**
 * Who says a value of the Brain's person's slot of her by her name (`whose`, resolved to her): the
 * speaker, another known person (`said`), else nobody (null). Her own words of herself in the third
 * person are hers as ever; a speaker nobody resolves is no one to cite as having said it.
 */
const nobody: OwnerClaim = { state: 'unresolved' };

function saidOfSelfBy(whose: OwnerClaim, speaker: OwnerClaim): string | null {
  return whose.state === 'self' && speaker.state === 'other' && speaker.entity !== undefined
    ? speaker.entity
    : null;
}

/**
 * A value of the Brain's person's slot that someone else says of her by name ("Ana lives in Porto",
 * "Ana's birthday is May 3rd" in Rui's words): hers, in her slot, so that it meets what she said of
 * herself, the same value as a citation of hers and another as a conflict. Its statement says who
 * said it ("Rui says Ana lives in Porto", slot-statement.ts `saidByStatement`): it contests her own
 * word and never replaces it (settle-lineage.ts), and only her own word replaces it. It was the
 * speaker's Memory of no slot, which never met hers.
 */
function saidOfSelf(
  said: { predicate: string; value: string; when?: string },
  self: OwnerClaim,
  by: string,
  quote: string,
): SaidClaim {
  const subject = self.entity!;
  const statement = saidByStatement(by, valueStatement(subject, said.predicate, said.value));
  const when = said.when !== undefined ? { startsWhen: said.when } : {};
  return { statement, subject, predicate: said.predicate, owner: self, quote, ...when };
}

/**
 * "Ana doesn't work at Acme anymore", "Ana no longer lives in Porto", "Ana isn't working at Acme any
 * more" in Rui's words: the end of her job or home as he says it ("Rui says Ana no longer works at
 * Acme"), read as her own "I don't work at Acme anymore" is (slotSentences' `ended`). Like his value, it
 * contests hers and never closes it (settle-lineage.ts), and only where Acme holds her slot then
 * (admit-claims.ts, as her own ending). Null for any other sentence, and
 * for anyone else's name (another person's ending is read nowhere yet).
 */
function endingSaidOfSelf(plain: SaidClaim, others: (name: string) => OwnerClaim): SaidClaim[] | null {
  const { quote: s, owner: speaker } = plain;
  const m = endedOfAnother.exec(s);
  if (m === null || speaker.state !== 'other') return null;
  const whose = others(m.groups!['who']!);
  const by = saidOfSelfBy(whose, speaker);
  if (by === null) return null;
  const neg = m.groups!['neg']!.toLowerCase().replace(/\s+/gu, ' ');
  const verb = m.groups!['verb']!.replace(/^(work|live)s$/iu, '$1');
  const lead = neg.startsWith('doesn')
    ? "don't"
    : neg === 'does not'
      ? 'do not'
      : neg.replace(/^is(?:n['’]t| not)$/u, 'am not').replace(/^is /u, 'am ');
  const mine = `I ${lead} ${verb}${s.slice(m[0].length)}`;
  const ended = slotSentences(mine).ended;
  if (ended === null) return null;
  const subject = whose.entity!;
  const statement = saidByStatement(by, endedStatement(subject, ended.predicate, ended.value));
  const ending = {
    statement,
    subject,
    predicate: ended.predicate,
    owner: whose,
    quote: s,
    ends: ended.value,
  };
  // "… anymore, she moved to Lisbon": what he goes on to say stays his words, as said.
  const after = mine.slice(ended.clause[1]).replace(/\bany\s*(?:more|longer)\b/giu, '');
  return /[\p{L}\p{N}]/u.test(after) ? [ending, plain] : [ending];
}
const endedOfAnother = new RegExp(
  String.raw`^(?<who>\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’-]*)?)\s+(?<neg>doesn['’]t|does\s+not|no\s+longer|is\s+no\s+longer|isn['’]t|is\s+not)\s+(?<verb>works?|lives?|working|living|based)(?![\p{L}\p{N}])`,
  'u',
);

/**
 * "Ana moved to Paris": where a person the speaker names lives or works holds that person's slot, so
 * it replaces "My sister Ana lives in Madrid" said before (slot-sentences.ts, otherPersonSlot). Its
 * statement is the engine's words where the sentence is the clause alone ("Ana lives in Paris"), else
 * the sentence, which keeps "my sister". Where the person named is the Brain's own, it is what the
 * speaker says of her (saidOfSelf). Null when the sentence says no such slot.
 */
function otherPersonClaims(
  s: string,
  others: (name: string) => OwnerClaim,
  /** Who says it, where that may be someone other than whom it names. */
  speaker: OwnerClaim = nobody,
): SaidClaim[] | null {
  const slot = otherPersonSlot(s);
  if (slot === null) return otherPersonsAttribute(s, others, speaker);
  const owner = others(slot.who);
  const by = saidOfSelfBy(owner, speaker);
  if (by !== null) {
    const claim = saidOfSelf(slot, owner, by, s);
    const job = slot.predicate === 'works at' ? occupationBeforeEmployer(s, slot, slot.who) : null;
    return job === null ? [claim] : [claim, saidOfSelf(job.job, owner, by, s.slice(...job.quote))];
  }
  if (owner.state !== 'other') return null;
  // "Lea lives in Lisbon, and she works at Google.": what "she" does next is hers in a Memory of its
  // own, so that a move does not take her job, or her diet, with the home it was said beside.
  const next = slot.when === undefined ? heOrSheGoesOn.exec(s.slice(slot.clause[1])) : null;
  const pronoun = next?.groups!['pronoun']!.toLowerCase() as HeOrShe | undefined;
  // Only where the clause says the pronoun is theirs ("My sister Lea …, she …"): a name alone says
  // neither ("Tom lives in Leeds; she is vegan" may be of anyone).
  const theirs =
    pronoun !== undefined &&
    pronounsTaken(slot.who, [s.slice(0, slot.clause[1])], new Map()).sure.has(pronoun);
  if (next !== null && theirs) {
    const said = withoutClosingMarks(s.slice(slot.clause[1] + next[0].length));
    // "…, she loves it there": of the home it was said beside, which it must not outlive.
    const home = leansBack.test(said) ? null : otherPersonClaims(s.slice(0, slot.clause[1]), others, speaker);
    if (home !== null && said !== '') return [...home, ...claimsOfTheirs(said, slot.who, owner, others)];
  }
  // "Sam moved to York in 2023": the year reads as the sentence's own words, not as more said.
  const bare = slot.when === undefined ? s : s.replace(slot.when, ' ');
  const alone = !/[\p{L}\p{N}]/u.test(bare.slice(0, slot.clause[0]) + bare.slice(slot.clause[1]));
  const statement = alone ? clauseStatement(slot.who, slot.predicate, slot.value) : s;
  const claim = {
    statement,
    subject: slot.who,
    predicate: slot.predicate,
    owner,
    quote: s,
    // Read into its day where the Record's time is known (withStarts).
    ...(slot.when !== undefined ? { startsWhen: slot.when } : {}),
  };
  // "Rui works as a nurse at Santa Maria": his job too, quoting its own words.
  const job = slot.predicate === 'works at' ? occupationBeforeEmployer(s, slot, slot.who) : null;
  if (job === null) return [claim];
  const { predicate, value } = job.job;
  const quote = s.slice(...job.quote);
  const said = {
    statement: valueStatement(slot.who, predicate, value),
    subject: slot.who,
    predicate,
    owner,
    quote,
  };
  return [claim, said];
}

/**
 * A clause that goes on with what "she" or "he" does, right after a slot's clause: ", she is
 * vegetarian", ", and he works at Google". Not one that reports ("…, she said", "…, he told me").
 */
const heOrSheGoesOn =
  /^\s*[,;]\s+(?:and\s+|but\s+|also\s+)?(?=(?<pronoun>she|he)\s+(?!(?:said|says|told|tells|thinks|thought|mentioned|reckons|guesses)(?![\p{L}\p{N}]))\p{L})/iu;

/** Text without the stops and marks that close it ("…works at Google!!" to "…works at Google"). */
function withoutClosingMarks(text: string): string {
  let t = text.trimEnd();
  while (/[.!…]$/u.test(t)) t = t.slice(0, -1).trimEnd();
  return t;
}

/**
 * What a clause of "she" or "he" (`said`, as written) says of the person named just before: read with
 * the name in their place ("she is vegetarian" as "Lea is vegetarian"), each claim quoting the clause.
 */
function claimsOfTheirs(
  said: string,
  who: string,
  owner: OwnerClaim,
  others: (name: string) => OwnerClaim,
): SaidClaim[] {
  const read = byName(said, who);
  const plain: Claim = { statement: read, subject: owner.entity ?? who, predicate: null, owner, quote: read };
  const claims = otherPersonClaims(read, others) ?? anotherPersonsClaims(plain, others) ?? [plain];
  return claims.map((c) => ({ ...c, quote: said }));
}

/**
 * "Rui is a nurse", "My brother Rui works as an electrician": his occupation's slot (occupation.ts);
 * "Marta is vegan", "Lea went vegetarian": her diet's (diet-of-another.ts).
 */
function otherPersonsAttribute(
  s: string,
  others: (name: string) => OwnerClaim,
  speaker: OwnerClaim = nobody,
): Claim[] | null {
  const job = occupationOfAnotherSaid(s) ?? dietOfAnotherSaid(s);
  if (job === null) return null;
  const owner = others(job.who);
  const { who, predicate, value } = job;
  // "Ana is a nurse" in Rui's words: her occupation as he says it; an ending of hers is hers to say.
  const by = saidOfSelfBy(owner, speaker);
  if (by !== null) return job.ends ? null : [saidOfSelf({ predicate, value }, owner, by, s)];
  if (owner.state !== 'other') return null;
  if (job.ends)
    return [
      {
        statement: endedStatement(who, predicate, value),
        subject: who,
        predicate,
        owner,
        quote: s,
        ends: value,
      },
    ];
  const statement = job.alone ? valueStatement(who, predicate, value) : s;
  return [{ statement, subject: who, predicate, owner, quote: s }];
}

/** Diets a person who eats meat again keeps no more. */
const meatless = ['vegetarian', 'vegan', 'pescatarian'];
/** "i eat meat again", "started eating meat again", "back to eating meat": a meatless diet over. */
const eatsMeat = new RegExp(
  String.raw`^${fillers}(?:i\s+|i['’]?ve\s+)?(?:(?:eat|eating)\s+meat\s+again|(?:started|start)\s+eating\s+meat\s+again|(?:am\s+|['’]m\s+)?back\s+(?:to|on)\s+(?:eating\s+)?meat)(?:\s+(?:now|lol|haha|btw|tho|though))*(?=,\s+not\s|${chatEnd})`,
  'iu',
);

const takesItBack =
  /(?<![\p{L}\p{N}])(?:jk|j\/k|just\s+kidding|kidding|said\s+no\s*one|not\s+really|yeah\s+right)(?![\p{L}\p{N}])|,\s*sure[.!]*$/iu;
/**
 * Words before a clause that frame it rather than say something: a wish, a dream, a quote, a time or a
 * place it holds in only ("When I'm in India, I'm vegetarian", "For Lent, …", "Jordan kept saying, …").
 */
const framesWhatFollows =
  /^(?:i\s+wish|i\s+hope|if|imagine|pretend|in\s+(?:my|a|the|your)\s+dreams?|when(?:ever)?|while|during|for|unless|until|once|at|on|in)(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])(?:said|says|say|saying|thinks|thought|told\s+me|telling\s+(?:me|him|her|them|everyone)|asked|asking|wrote|texted)$/iu;
/**
 * How something went, said of no one ("Surgery went fine!", "The scan was clear."), and no word of the
 * speaker's own in it.
 */
const outcomeOfNoOne = new RegExp(
  String.raw`^(?:the\s+|her\s+|his\s+)?(?<what>\p{L}[\p{L}-]*)(?:\s+\p{L}[\p{L}-]*)?\s+(?:went|was|is|has\s+been|came\s+back)\s+(?:really\s+|very\s+|so\s+|totally\s+)?(?:fine|well|ok|okay|great|good|smoothly|perfectly|successful|a\s+success|clear|over|done)${chatEnd}`,
  'iu',
);
/** A word of the speaker's own anywhere in a sentence: "I", "my", "we", ... */
const saysFirstPerson = new RegExp(String.raw`(?<![\p{L}\p{N}'’])${firstPerson}`, 'iu');
/** Someone named as the subject of a sentence that opens with them: "Mama is …", "my mum is …". */
const kinOpens = new RegExp(
  String.raw`^(?:(?:my|our)\s+)?(?<kin>${relation}|mama|mamma|tata|mommy|mummy|daddy|granny|baka|djed|nana)(?:\s+(?:is|was|has|had|got|went|says|said|feels|needs)|['’]s)(?![\p{L}\p{N}])`,
  'iu',
);

/**
 * Who a sentence is of when it tells how something went, of no one, right before a sentence that opens
 * with someone else ("Surgery went fine! Mama is in recovery, …": Mama): the news is theirs. Null where
 * the sentence says anything else, speaks of the speaker, or the next opens with no one else.
 */
function outcomeOfTheNext(sentence: string, next: string): string | null {
  const m = outcomeOfNoOne.exec(sentence.trim());
  if (m === null || saysFirstPerson.test(sentence)) return null;
  const n = next.trim();
  const kin = kinOpens.exec(n);
  if (kin !== null) return kin.groups!['kin']!;
  const named = aboutAnother(n) ?? opensWithAName(n);
  // "Marko went well. Ana says so": a name opening the first sentence is its own subject.
  if (
    named === null ||
    !namesAPerson(named, true) ||
    named.toLowerCase() === m.groups!['what']!.toLowerCase()
  )
    return null;
  return named;
}

/** Someone else opening a sentence as its subject: "Ana is …", "My sister eats …", "she's …". */
const othersSubject =
  /^[\s"“(]*(?:(?:(?:my|our|his|her|their)\s+)?\p{L}+|he|she|they|we|you)(?:\s+(?:is|are|was|were|has|have|eats|keeps|went)|['’]s|['’]re)(?![\p{L}\p{N}])/iu;
/** A sentence the speaker opens as its subject: "I …", "actually i …", "im …". */
const opensWithSpeaker = new RegExp(
  String.raw`^${fillers}(?:i|i['’](?:m|ve)|im|ive)(?![\p{L}\p{N}'’])`,
  'iu',
);

/** A clause's closing laugh: "lol", "haha", "😂", "jk". */
const laughedAt = /(?:(?<![\p{L}\p{N}])(?:lol|lmao|haha\p{L}*|jk|xd)|😂|🤣|😅|😜|🙃)[\s.!]*$/iu;

/**
 * The attributes later clauses of a sentence say whole ("i have a cat named Pimenta and my boyfriend
 * is Rui": the boyfriend; "i eat meat again, not vegetarian anymore": the end of the diet), each its
 * slot's claim quoting its clause, and where they run to the sentence's end, what comes before them
 * (`before`: "i have a cat named Pimenta"), the sentence's statement without them. Only a clause after
 * ", ", " and " or ";" that opens with "my", "not" or "no longer", as attributeSentence reads a
 * sentence of its own.
 */
function clauseAttributes(
  s: string,
  subject: string,
  owner: OwnerClaim,
): { claims: SaidClaim[]; before: string | null } {
  const claims: SaidClaim[] = [];
  // Taken back ("…, just kidding", "…, said no one"): no clause of it holds anything.
  if (s.length > 400 || takesItBack.test(s)) return { claims, before: null };
  let first = -1;
  let end = 0;
  for (const m of matchesOf(
    /(?:,\s*(?:and\s+)?|\sand\s+|;\s*)(?=(?:my|not|no\s+longer|(?:so\s+(?:now\s+)?)?i(?:['’]?m|\s+am)|so(?=\s+(?:vegetarian|vegan|pescatarian|pescetarian|flexitarian)(?![\p{L}\p{N}])))\s)/giu,
    s,
  )) {
    const from = m.index + m[0].length;
    const rest = s.slice(from);
    const next = /,\s|\sand\s|;/u.exec(rest);
    const clause = (next === null ? rest : rest.slice(0, next.index)).trim();
    const a = attributeSentence(clause);
    if (a === null || a.own) continue;
    // "I ate a salad today, so I'm vegan now lol": what it comes to, laughed at, is a joke; and it
    // must end the sentence: "…, so I'm vegan now too, or so she thinks" hedges it.
    if (/^so\s/iu.test(clause) && (laughedAt.test(clause) || next !== null)) continue;
    // "i wish, my boyfriend is Tom", "Tom said, my boyfriend is Tom": a frame, not a statement before.
    const lead = s.slice(0, m.index).trim();
    if (first < 0 && (wordCount(lead) < 2 || framesWhatFollows.test(lead))) break;
    // "not vegetarian anymore" says of whom the sentence opens with: only the speaker's own.
    // "…, so I'm vegan now too" names the speaker itself, whoever the sentence opened with.
    if (!/^(?:my|our|so\s|i['’]?m\s|i\s+am\s)/iu.test(clause) && !opensWithSpeaker.test(s)) continue;
    // "…, so pescatarian now": its "I'm" left out, the speaker's only where no one else opens the
    // sentence ("Vegetarian plus fish, so …"; not "Ana is eating fish again, so …").
    if (/^so\s+(?!now\s|i['’\s])/iu.test(clause) && othersSubject.test(lead)) continue;
    if (first < 0) first = m.index;
    end = from + clause.length;
    const statement = (a.ends ? endedStatement : valueStatement)(subject, a.predicate, a.value);
    claims.push({
      statement,
      subject,
      predicate: a.predicate,
      owner,
      quote: clause,
      ...(a.ends ? { ends: a.value } : {}),
    });
  }
  const toEnd = claims.length > 0 && !/[\p{L}\p{N}]/u.test(s.slice(end));
  const before = toEnd ? s.slice(0, first).trim() : null;
  return { claims, before: before !== null && isStatement(before) ? before : null };
}

/**
 * A statement about someone else, who opens it ("Inês is vegetarian though", "My sister Inês is a
 * nurse"): theirs, as said; not the speaker's (about-another.ts). Null where it opens with no one else.
 */
function anotherPersonsClaims(
  plain: Claim,
  others: (name: string) => OwnerClaim,
  who: string | null = aboutAnother(plain.statement),
): Claim[] | null {
  const owner = who === null ? null : others(who);
  if (owner?.state !== 'other') return null;
  return [{ ...plain, subject: owner.entity ?? who!, owner }];
}

/**
 * Another person's slot as an agent's note says it ("Sam lives in Bristol." through MCP): as the
 * person's own slots an agent restates, it holds the slot where it is empty or repeats its value, and
 * never replaces what the person said ("Sam lives in Leeds." in her chat): it is the agent's statement
 * instead. Nor does it end one ("Sam isn't a nurse anymore."), as an agent does not end hers
 * (agent-words.ts): that is its statement, of no slot. A restored value is left as it is. Its
 * statement is the sentence `said`, as for hers: a slot's quote may be a clause of it ("Rui works as a
 * nurse" of "Rui works as a nurse at Santa Maria."), a Memory of half a sentence beside the whole.
 */
const agentsWordOfAnother =
  (said: string) =>
  (c: Claim): Claim => {
    if (c.predicate === null || c.owner.state !== 'other' || c.restated !== undefined) return c;
    if (c.ends !== undefined || c.endsHeld !== undefined) {
      const { ends: _ends, endsHeld: _endsHeld, ...rest } = c;
      return { ...rest, statement: said, predicate: null };
    }
    if (c.restoresHeld !== undefined) return c;
    return { ...c, restated: { statement: said, subject: c.subject, owner: c.owner } };
  };

/**
 * A sentence of an agent's note that names the person's kin by her name ("Maya's brother Sam works at
 * Google.", "Maya Costa's sister Ana …"), as "User's brother Sam …", which the rules read as her "My
 * brother Sam …" (slot-sentences.ts `kinOf`); else the sentence as it is.
 */
function asUsersKin(s: string, self: SelfEntity): string {
  const whole = self.name.trim();
  const names = [whole, whole.split(/\s+/u)[0]!].filter((n) => n !== '').map(escapeRegExp);
  const m = new RegExp(String.raw`^(?:${names.join('|')})['’]s\s+(?=${relation}(?![\p{L}\p{N}]))`, 'iu').exec(
    s,
  );
  return m === null ? s : `User's ${s.slice(m[0].length)}`;
}

/** A claim read from `read` (asUsersKin) told in the sentence's own words, `said`. */
function inItsWords<C extends Claim>(c: C, read: string, said: string): C {
  if (read === said) return c;
  const own = (t: string) => (t === read ? said : t);
  return {
    ...c,
    statement: own(c.statement),
    quote: said.includes(c.quote) ? c.quote : said,
    ...(c.restated ? { restated: { ...c.restated, statement: own(c.restated.statement) } } : {}),
  };
}

/** A word for a person already named: "he", "his", "her", … */
const saysHeOrShe = /(?<![\p{L}\p{N}])(?:he|him|his|she|her|hers)(?![\p{L}\p{N}])/iu;

/** A sentence that opens with the writer or the user: "I …", "My …", "We …", "The user …". */
const sayerFirst = /^\s*(?:i|my|we|our|(?:the\s+)?user)(?:['’]\p{L}+)?(?![\p{L}\p{N}])/iu;

/**
 * Whom a sentence opens with as its subject (aboutAnother), or whose slot it says, whatever its verb
 * ("Ana got a new job at Infobip.").
 */
const personOpening = (sentence: string): string | null =>
  aboutAnother(sentence) ?? otherPersonSlot(sentence)?.who ?? null;

/**
 * A note's passage about someone else who opens it: a sentence that says one of their slots by their
 * name or as "he" or "she" ("Ana is a nurse", "Sam lives in Leeds. He works at Acme.") holds it, as a
 * message's would; the sentences between are one Memory of theirs each run, quoting it whole. A later
 * sentence that opens with someone else ("Sam lives in Leeds.\nAna is a nurse.") starts what is theirs:
 * Ana's job is not Sam's. Slots are read from the words as they show (`unmark`: "**Sam** lives in
 * Leeds."), quoting the note's own characters. An agent's note (`agents`) restates them
 * (agentsWordOfAnother). Null where the passage opens with no other person and names none after.
 */
function ofAnotherPerson(
  plain: Claim,
  others: (name: string) => OwnerClaim,
  unmark: (s: string) => string,
  agents: boolean,
  ofHer: (firstWord: string) => boolean,
): Claim[] | null {
  const said = sentences(plain.quote).map((x) => ({ ...x, words: unmark(x.value) }));
  type Said = (typeof said)[number];
  const word = (c: Claim, sentence: string) => (agents ? agentsWordOfAnother(sentence)(c) : c);
  const quoted = (claims: Claim[], x: Said) =>
    x.words === x.value ? claims : claims.map((c) => ({ ...c, quote: x.value }));
  if (said.length <= 1) {
    const x = said[0] ?? { start: 0, end: plain.quote.length, value: plain.quote, words: plain.statement };
    const slots = otherPersonClaims(x.words, others);
    if (slots !== null) return quoted(slots, x).map((c) => word(c, plain.statement));
    return anotherPersonsClaims(plain, others);
  }
  // "Sam" after "Sam Lee" is him; "Sam Jones" is not, nor is "Sam Jones" the "Sam" before.
  const words = (name: string) => foldName(name).split(/\s+/u);
  const sameOne = (later: string, who: string) => {
    const [a, b] = [words(later), words(who)];
    return a.length <= b.length && a.every((w, i) => w === b[i]);
  };
  // The passage by whom each sentence opens with: a sentence naming no one goes on the run before it.
  const runs: Array<{ who: string | null; said: Said[] }> = [];
  for (const x of said) {
    const named = personOpening(x.words);
    const last = runs.at(-1);
    // "Sam lives in Leeds. The user visits him often.": hers to say, not Sam's. "Sam works at Acme.
    // Acme Corp moved to Berlin.", "Sam lives in Leeds. Ana has two kids.": what opens with another
    // name, a person's or not, and says no "he" or "his" that may be theirs, is not theirs either.
    const thing = named === null ? opensWithAName(x.words) : null;
    if (
      named === null &&
      (sayerFirst.test(x.words) ||
        ofHer(/^\s*[\p{L}\p{M}'’-]+/u.exec(x.words)?.[0] ?? '') ||
        (thing !== null &&
          last !== undefined &&
          last.who !== null &&
          !sameOne(thing, last.who) &&
          !saysHeOrShe.test(x.words)))
    ) {
      runs.push({ who: null, said: [x] });
      continue;
    }
    if (last !== undefined && (named === null || (last.who !== null && sameOne(named, last.who))))
      last.said.push(x);
    else runs.push({ who: named, said: [x] });
  }
  const referents = namedJustBefore(said.map((x) => x.words));
  const passageOf = (xs: Said[], claim: Omit<Claim, 'statement' | 'quote'>): Claim => {
    const quote = plain.quote.slice(xs[0]!.start, xs.at(-1)!.end);
    return { ...claim, statement: unmark(quote), quote };
  };
  if (runs.length === 1) {
    const whole = anotherPersonsClaims(plain, others, runs[0]!.who);
    if (whole === null) return null;
    const read = ofOnePerson(runs[0]!.said, runs[0]!.who!, whole[0]!);
    return read.some((c) => c.predicate !== null) ? withoutPronounClashes(read) : whole;
  }
  /** A run about `who`: its sentences that hold their slots apart, the rest one Memory each stretch. */
  function ofOnePerson(xs: Said[], who: string, theirs: Claim): Claim[] {
    const { subject, owner } = theirs;
    const slotsOf = (x: Said): Claim[] | null => {
      const held = (cs: Claim[] | null) => (cs?.some((c) => c.predicate !== null) ? cs : null);
      if (opensWithHeOrShe.test(x.words))
        return sameOne(referents.get(x.words) ?? '', who) ? held(heOrSheClaims(x.words, who, owner)) : null;
      const named = personOpening(x.words);
      if (named === null || !sameOne(named, who)) return null;
      return held(otherPersonClaims(x.words, () => owner));
    };
    // "Sam lives in Leeds with Ana. She is a nurse.": a "she" that may be someone else keeps the run
    // whole, as said, rather than a Memory of Sam's that reads "She is a nurse.".
    const unsure = xs.some(
      (x) => opensWithHeOrShe.test(x.words) && !sameOne(referents.get(x.words) ?? '', who),
    );
    if (unsure) return [passageOf(xs, theirs)];
    const out: Claim[] = [];
    let stretch: Said[] = [];
    const flush = () => {
      if (stretch.length > 0) out.push(passageOf(stretch, { ...plain, subject, owner }));
      stretch = [];
    };
    for (const x of xs) {
      const slots = slotsOf(x);
      if (slots === null) {
        stretch.push(x);
        continue;
      }
      flush();
      // A restatement stands alone: "He works at Acme." is said as "Sam works at Acme."
      out.push(...quoted(slots, x).map((c) => word({ ...c, subject, owner }, byName(x.words, who))));
    }
    flush();
    return out;
  }
  const read = runs.flatMap(({ who, said: xs }) => {
    const owner = who === null ? null : others(who);
    if (owner?.state !== 'other') return [passageOf(xs, plain)];
    return ofOnePerson(xs, who!, { ...plain, subject: owner.entity ?? who!, owner });
  });
  return read.some((c) => c.owner.state === 'other') ? withoutPronounClashes(read) : null;
}

/**
 * The parts of a sentence, one per clause (in the order given), each from its clause's start (the
 * first from the sentence's) to the next clause's start, without the words joining them (", and").
 */
function sentenceParts(s: string, clauses: readonly SlotSentence[]): string[] {
  const starts = clauses.map((c) => c.clause[0]);
  const order = [...starts].sort((a, b) => a - b);
  return starts.map((start) => {
    const at = order.indexOf(start);
    const from = at === 0 ? 0 : start;
    const to = at === order.length - 1 ? s.length : order[at + 1]!;
    return withoutJoin(s.slice(from, to)).trim();
  });
}

/** A part without the marks and words that join it to the next: "I live in Lisbon with Tom, and ". */
function withoutJoin(part: string): string {
  let t = part.trimEnd();
  for (;;) {
    if (/[,;:–—-]/u.test(t.at(-1) ?? '')) t = t.slice(0, -1).trimEnd();
    else {
      const word = ['and', 'but'].find(
        (w) => t.endsWith(w) && !/[\p{L}\p{N}]/u.test(t.at(-w.length - 1) ?? ''),
      );
      if (word === undefined) return t;
      t = t.slice(0, -word.length).trimEnd();
    }
  }
}

/** A part of a sentence that states the claim's slot value alone, read as the sentence was. */
function readsBack(part: string, claim: Claim): boolean {
  const found = slotSentences(part).slots;
  return (
    found.length === 1 &&
    clauseStatement(claim.subject, found[0]!.predicate, found[0]!.value) === claim.statement
  );
}

/**
 * A sentence about the place or the employer just said, not about anyone: "It is beautiful.", "It's
 * lovely in May.", "Rent is high there.", "The pay is good there." Not one with a person in it ("I love
 * it there", "She loves it", "It is her favourite city"): that one is someone's to say.
 */
const itOpens = /^it(?:['’]s|\s+(?:is|has|feels|looks|seems|gets|rains|snows))(?![\p{L}\p{N}])/iu;
const thereEnds = /(?<![\p{L}\p{N}])there(?:\s+(?:too|now|though|tho|lol|haha))*[.!]*$/iu;
const somebody = new RegExp(
  String.raw`(?<![\p{L}\p{N}'’])(?:${firstPerson}|you|your|yours|he|him|his|she|her|hers|they|them|their)(?![\p{L}\p{N}])`,
  'iu',
);
function aboutThePlace(quote: string): boolean {
  // A note's run of such sentences is one claim ("Rent is high there. It rains a lot.").
  return sentences(quote).every((x) => sentenceOfThePlace(x.value));
}
function sentenceOfThePlace(sentence: string): boolean {
  const s = sentence.trim();
  if (asks(s) || somebody.test(s) || aboutAnother(s) !== null) return false;
  return itOpens.test(s) || (thereEnds.test(s) && (opensWithAName(s) === null || opensWithAThing(s)));
}

/**
 * "Ana lives in Porto. It is beautiful.": the sentence after a home or a job that only says what the
 * place is like goes with it, quoted by its claim, rather than a Memory of its own about nobody (or the
 * speaker's, or the source's) that outlives the home. The claim's statement stays the slot's.
 */
function withPlaceSaidAfter<C extends Claim>(claims: C[], text: string): C[] {
  const out: C[] = [];
  // Where the last claim's quote starts in the text, found once for a home's or a job's.
  let from = -1;
  for (const c of claims) {
    const last = out.at(-1);
    const slot = last?.predicate === 'lives in' || last?.predicate === 'works at';
    if (last !== undefined && slot && last.ends === undefined && from >= 0 && plainStatement(c)) {
      const end = from + last.quote.length;
      let at = end;
      while (at < text.length && /\s/u.test(text[at]!)) at += 1;
      if (at > end && text.startsWith(c.quote, at) && aboutThePlace(c.quote)) {
        out[out.length - 1] = { ...last, quote: text.slice(from, at + c.quote.length) };
        continue;
      }
    }
    out.push(c);
    from = c.predicate === 'lives in' || c.predicate === 'works at' ? text.indexOf(c.quote) : -1;
  }
  return out;
}

/** A claim of no slot that is its sentence and nothing else (no reply, plan or idea to read). */
const plainStatement = (c: Claim): boolean =>
  c.predicate === null &&
  Object.keys(c).every((k) =>
    ['statement', 'subject', 'predicate', 'owner', 'quote', 'startsWhen'].includes(k),
  );

function unique(xs: string[]): string[] {
  return [...new Set(xs)].filter((x) => x.length > 0);
}
