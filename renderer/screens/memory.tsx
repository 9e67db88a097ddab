import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AcceptedObject, MemoryDetail, MemoryRevision } from '../../engine/contract/index.ts';
import { isMnemoApiError, useClient } from '../api/client.ts';
import { useAcceptObject, useCorrectMemory } from '../api/mutations.ts';
import { memoryOptions } from '../api/queries.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { QuoteInContext } from '../components/quote-in-context.tsx';
import { RevisionTimeline, TruthSpan } from '../components/revision-timeline.tsx';
import { slug } from '../slug.ts';
import {
  aboutLabel,
  endsValue,
  isSelfSpeaker,
  quoteAddsWords,
  quoteLabel,
  sameWordsLabel,
  factToCorrect,
  statementLabel,
  versionLabel,
} from '../record-text.ts';
import { errorHidesData, ErrorNotice, Loading } from '../components/status.tsx';
import { RecordLink } from '../components/record-link.tsx';
import { useFolded } from '../components/folded-list.tsx';
import { evidenceWhen, memoryDays } from '../all-day.ts';
import { groupSpan, sameEvidenceGroups, type EvidenceGroup } from '../evidence-groups.ts';
import {
  crumbWords,
  formatDate,
  formatDateTime,
  headingOf,
  oneLine,
  ownerLabel,
  statusLabels,
} from '../format.ts';
import { addToNoteDraft } from '../note-draft.ts';
import {
  correctionDraft,
  draftWords,
  formFromDraft,
  keepCorrectionDraft,
  readCorrectionDraft,
  holdsFromInstant,
  type CorrectionDraft,
  type CorrectionForm,
} from '../correction-draft.ts';
import { Link, navigate } from '../router.tsx';
import { paths } from '../routes.ts';
import { currentAfterWithdrawal, currentInstead, replacedBy } from '../withdrawal.ts';
import { useFocusIfLost } from '../use-focus-if-lost.ts';

export function MemoryScreen({ brainId, memoryId }: { brainId: string; memoryId: string }) {
  const client = useClient();
  const memory = useQuery(memoryOptions(client, brainId, memoryId, useQueryClient()));
  // A correction being written, kept here rather than in the form: the Memory can go away under it (its
  // Records forgotten by an agent or in another window) or fail to read again, and the person's words
  // must outlive the page that showed it. Kept in the tab's storage too (correction-draft.ts), so a
  // reload or a sign-in that ended (a server restart) does not lose it either. This screen is keyed by
  // the Memory (app.tsx): its state is the one Memory's.
  const [draft, setDraft] = useState(() => readCorrectionDraft(brainId, memoryId));
  // Found on opening the page: said in the form, as a note kept on Records is.
  const [restored] = useState(() => draft !== null);
  const onDraft = useCallback(
    (next: CorrectionDraft | null) => {
      setDraft(next);
      keepCorrectionDraft(brainId, memoryId, next);
    },
    [brainId, memoryId],
  );
  const words = draftWords(draft);
  if (memory.isPending) return <Loading what="this Memory" />;
  if (memory.data === undefined || errorHidesData(memory)) {
    const gone = isMnemoApiError(memory.error) && memory.error.code === 'memory_not_found';
    const pending = isMnemoApiError(memory.error) && memory.error.code === 'memory_pending_rederivation';
    // The API answers memory_not_found alike for an id that never was and one whose Records were
    // forgotten, so the page says both; unless the person was correcting it, so it was here.
    return (
      <>
        <h1 tabIndex={-1}>
          {gone
            ? 'This Memory is not in this Brain'
            : pending
              ? 'This Memory is being worked out again'
              : 'Memory'}
        </h1>
        {words !== null ? (
          <CorrectionOfMissingMemory
            brainId={brainId}
            draft={words}
            why={gone ? 'gone' : pending ? 'pending' : 'unread'}
            onKept={() => onDraft(null)}
          />
        ) : null}
        {gone ? (
          <>
            {words === null ? (
              <p className="lead">
                No Memory here has the id <code>{memoryId}</code>. Either the address is mistyped or cut
                short, or the Records the Memory came from were forgotten, which removes a Memory with them.
              </p>
            ) : null}
            <p className="error-meta">
              Code <code>memory_not_found</code>
            </p>
          </>
        ) : null}
        {pending ? (
          <p className="lead">
            A Record it rested on was forgotten. It comes back once it has been worked out from what remains.
          </p>
        ) : null}
        {gone ? null : <ErrorNotice error={memory.error} />}
        <p>
          <Link to={paths.brain(brainId, 'memories')}>Back to Memories</Link>
        </p>
      </>
    );
  }
  return <MemoryView brainId={brainId} m={memory.data} draft={draft} restored={restored} onDraft={onDraft} />;
}

/**
 * A correction the person was writing when its Memory could no longer be read: their words, never
 * dropped, with what happened and what they can do with them. Gone (its Records were forgotten): copy
 * them, or take them to Records as a new note. Being worked out again, or not read just now: they go
 * back into the form when the Memory is there again. Focused if the form had focus.
 */
function CorrectionOfMissingMemory({
  brainId,
  draft,
  why,
  onKept,
}: {
  brainId: string;
  draft: string;
  why: 'gone' | 'pending' | 'unread';
  onKept: () => void;
}) {
  const ref = useFocusIfLost<HTMLDivElement>();
  const [notKept, setNotKept] = useState(false);
  const keepAsNote = () => {
    if (!addToNoteDraft(brainId, draft)) return setNotKept(true);
    onKept();
    navigate(paths.brain(brainId, 'records'));
  };
  return (
    <div className="status error" role="alert" tabIndex={-1} ref={ref}>
      <p className="error-title">Your correction was not saved</p>
      <p>
        {why === 'gone'
          ? 'This Memory was removed while you were writing: the Records it came from were forgotten (by an agent, or in another window), so there is nothing left to correct.'
          : why === 'pending'
            ? 'It cannot be saved while this Memory is worked out again. Once it is back, so are your words, in the form, to check and save.'
            : 'This Memory cannot be read just now. Once it can, your words are back in the form.'}{' '}
        What you wrote:
      </p>
      <blockquote className="quote" dir="auto">
        {draft}
      </blockquote>
      <div className="row">
        <span>
          <CopyButton text={draft} what="the text" label="Copy what you wrote" />
        </span>
        {why === 'gone' ? (
          <button type="button" onClick={keepAsNote}>
            Write it as a new note
          </button>
        ) : null}
        <button type="button" onClick={onKept}>
          Discard it
        </button>
      </div>
      {notKept ? (
        <p className="field-error">
          The note could not be kept for the Records page here: copy it, then paste it there.
        </p>
      ) : why === 'gone' ? (
        <p className="hint">
          A new note is a Record of its own, on Records, ready for you to check and save.
        </p>
      ) : null}
    </div>
  );
}

/** Versions of the slot named by link, as the page says them, in a list of commas. */
function VersionLinks({
  brainId,
  versions,
  said,
}: {
  brainId: string;
  versions: readonly MemoryRevision[];
  said: (r: MemoryRevision) => string;
}) {
  return versions.map((r, i) => (
    <span key={r.id}>
      {i > 0 ? ', ' : ''}
      <Link to={paths.memory(brainId, r.id)}>{said(r)}</Link>
    </span>
  ));
}

function MemoryView({
  brainId,
  m,
  draft,
  restored,
  onDraft,
}: {
  brainId: string;
  m: MemoryDetail;
  draft: CorrectionDraft | null;
  restored: boolean;
  onDraft: (draft: CorrectionDraft | null) => void;
}) {
  const unsaved = draftWords(draft);
  // What replaces a value no longer in force: the newer version in force now, else one starting later.
  // A scheduled value is replaced by nothing (it starts later), nor is a current one.
  const later = m.revisions.filter((r) => r.version > m.version);
  const newer =
    m.status === 'superseded'
      ? (later.filter((r) => r.status === 'active').at(-1) ??
        later.filter((r) => r.status === 'scheduled').at(-1))
      : undefined;
  // What took this version's place when it ended, named first where it is not what holds now.
  const next = newer ? (replacedBy(m.revisions, m.id) ?? newer) : undefined;
  // A withdrawn value gives way to whatever the slot holds without it, often an earlier version.
  const instead = m.status === 'retracted' ? currentInstead(m.revisions, m.id) : [];
  // What holds the slot until a scheduled value starts: the lineage's version current now, if any.
  const holdsUntil =
    m.status === 'scheduled' ? m.revisions.filter((r) => r.id !== m.id && r.status === 'active') : [];
  // Worked out from an all-day event: its start is a day of the calendar, not an instant.
  const days = memoryDays(m);
  // The slot's other versions, said as this one is ("Your …" for the Brain's own person).
  const said = versionLabel(m);
  const heading = headingOf(statementLabel(m));
  // The correction lives here, not in its form: once saved, the page shows the replaced version and
  // the form goes away, so the confirmation is said (and focused) in the notice that stays.
  const correct = useCorrectMemory(brainId);
  // A Memory a year of messages repeats can cite hundreds of Records: the first few are drawn.
  const evidence = useFolded(sameEvidenceGroups(m.evidence), 'sources');
  const citations = useFolded(m.citations, 'sources');
  const saved = correct.isSuccess;
  const inForce = m.status === 'active' || m.status === 'scheduled';
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!saved) return;
    notice.current?.focus();
    // Saved: nothing is left unsaved to keep if the Memory goes away later.
    onDraft(null);
  }, [saved, onDraft]);
  return (
    <>
      <p className="crumbs">
        {/* The Memory by its words, shortened, as the list names it; its id on hover and under Id below. */}
        <Link to={paths.brain(brainId, 'memories')}>Memories</Link> /{' '}
        <span dir="auto" title={m.id}>
          {crumbWords(statementLabel(m))}
        </span>
      </p>
      <h1 tabIndex={-1} className="statement" dir="auto" {...(heading.cut ? { title: heading.whole } : {})}>
        {heading.shown}
      </h1>
      {heading.cut ? (
        // A long statement (a whole paragraph a note was read into) made the heading a bold page of its
        // own, 14 lines at 400 px: the heading is its start, the whole of it one press away.
        <details className="statement-whole">
          <summary>The whole statement ({heading.whole.length.toLocaleString()} characters)</summary>
          <p dir="auto">{heading.whole}</p>
        </details>
      ) : null}
      <div role="status" ref={notice} tabIndex={-1}>
        {newer ? (
          <p className="notice">
            {saved ? 'Saved. ' : ''}A newer version replaces this one:{' '}
            <Link to={paths.memory(brainId, (next ?? newer).id)}>{said(next ?? newer)}</Link>
            {next && next.id !== newer.id ? (
              <>
                {' '}
                ({newer.status === 'scheduled' ? 'starting later' : 'current now'}:{' '}
                <Link to={paths.memory(brainId, newer.id)}>{said(newer)}</Link>)
              </>
            ) : null}
          </p>
        ) : m.status === 'retracted' && !(saved && correct.data.record.status === 'processing') ? (
          <p className="notice">
            {saved ? 'Saved. ' : ''}This Memory is withdrawn: agents are no longer told of it.{' '}
            {m.withdrawn_by && !saved ? <WithdrawnBy brainId={brainId} by={m.withdrawn_by} /> : null}
            {instead.length === 0 ? (
              'No other value takes its place.'
            ) : (
              <>
                {instead[0]!.status === 'scheduled' ? 'Starting later instead: ' : 'Current instead: '}
                <VersionLinks brainId={brainId} versions={instead} said={said} />
                {instead.length > 1 ? ' (its sources disagree; see Conflicts)' : ''}
              </>
            )}
          </p>
        ) : m.status === 'scheduled' && !saved ? (
          <p className="notice">
            This value holds from {days ? formatDate(m.valid_from, true) : formatDateTime(m.valid_from)};
            until then{' '}
            {holdsUntil.length === 0 ? (
              'no other value of it is known.'
            ) : (
              <>
                <VersionLinks brainId={brainId} versions={holdsUntil} said={said} />{' '}
                {holdsUntil.length > 1 ? 'are' : 'is'} current.
              </>
            )}
          </p>
        ) : saved ? (
          <p className="notice ok">
            Saved.{' '}
            {correct.data.record.status === 'processing'
              ? 'It is being applied now.'
              : 'The history below shows the new version.'}
          </p>
        ) : null}
      </div>
      <dl className="facts">
        <dt>Whose</dt>
        <dd>{ownerLabel(m.owner)}</dd>
        <dt>About</dt>
        <dd>{aboutLabel(m)}</dd>
        {m.value !== null && m.value !== undefined ? (
          <>
            <dt>Value</dt>
            <dd dir="auto">{m.value}</dd>
          </>
        ) : null}
        <dt>True</dt>
        <dd>
          <TruthSpan brainId={brainId} revisions={m.revisions} r={m} />
        </dd>
        <dt>Version</dt>
        <dd>{m.version}</dd>
        <dt>Status</dt>
        <dd>{statusLabels[m.status]}</dd>
        <dt>Id</dt>
        <dd className="mono wrap-anywhere">{m.id}</dd>
      </dl>

      <section aria-labelledby="evidence">
        <h2 id="evidence">Where this comes from</h2>
        {m.evidence.length === 0 ? (
          <ul className="list">
            {citations.shown.map((c, i) => (
              <li key={i} className="list-item">
                {quoteAddsWords(c.quote, m) ? (
                  <blockquote className="quote">
                    <mark>{quoteLabel(c.quote, m)}</mark>
                  </blockquote>
                ) : null}
                <p className="meta">
                  {quoteAddsWords(c.quote, m) ? null : <span>{sameWordsLabel(m)}</span>}
                  <RecordLink brainId={brainId} id={c.record_id} className="mono" />
                </p>
              </li>
            ))}
          </ul>
        ) : (
          <ul className="list">
            {evidence.shown.map((group, i) => {
              const { first: e, all } = group;
              return (
                <li key={`${e.record_id}-${i}`} className="list-item evidence">
                  {/* A Record whose words are the statement's (rules-v28's sentence, a fact's line)
                    would repeat the heading right under it: the rest of the evidence is said alone. */}
                  {/* A key without records:read is given the quote alone (text null). */}
                  {quoteAddsWords(e.text ?? e.quote, m, e.kind) ? (
                    <QuoteInContext
                      text={quoteLabel(e.text ?? e.quote, m, e.kind)}
                      quote={quoteLabel(e.quote, m, e.kind)}
                    />
                  ) : null}
                  <p className="meta">
                    <span className="badge">{e.kind}</span>
                    {quoteAddsWords(e.text ?? e.quote, m, e.kind) ? null : (
                      <span>{sameWordsLabel(m, e.kind)}</span>
                    )}
                    {e.speaker ? <span>said by {isSelfSpeaker(e.speaker) ? 'you' : e.speaker}</span> : null}
                    {e.source_name ? <span>from {e.source_name}</span> : null}
                    {all.length === 1 ? (
                      <>
                        <span>{evidenceWhen(e)}</span>
                        <RecordLink brainId={brainId} id={e.record_id} className="mono muted" />
                      </>
                    ) : (
                      <span>{timesSaid(group)}</span>
                    )}
                  </p>
                  {all.length > 1 ? (
                    <details className="same-words">
                      <summary>Its {all.length.toLocaleString()} Records</summary>
                      <ul>
                        {all.map((x) => (
                          <li key={x.record_id}>
                            <span>{evidenceWhen(x)}</span>
                            <RecordLink brainId={brainId} id={x.record_id} className="mono muted" />
                          </li>
                        ))}
                      </ul>
                    </details>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
        {m.evidence.length === 0 ? citations.toggle : evidence.toggle}
      </section>

      <section aria-labelledby="history">
        <h2 id="history">History</h2>
        {m.revisions.length > 0 ? (
          <RevisionTimeline
            brainId={brainId}
            revisions={m.revisions}
            currentId={m.id}
            said={said}
            ended={endsValue(m)}
          />
        ) : (
          <p className="muted">Only this version exists.</p>
        )}
      </section>

      {inForce ? (
        <div className="two-col">
          <CorrectForm m={m} correct={correct} draft={draft} restored={restored} onDraft={onDraft} />
          <AcceptForm brainId={brainId} m={m} />
        </div>
      ) : (
        <>
          {unsaved !== null && !saved && !correct.isPending ? (
            <UnsavedCorrection
              brainId={brainId}
              draft={unsaved}
              newer={newer}
              said={said}
              onDiscard={() => onDraft(null)}
            />
          ) : null}
          <p className="muted">
            Only a version in force (current, or starting later) can be corrected or accepted.
          </p>
        </>
      )}
    </>
  );
}

/**
 * What the person was writing when the version stopped being in force and its form went away: their
 * words, kept to copy, and where to correct now. Focused if the form had focus.
 */
function UnsavedCorrection({
  brainId,
  draft,
  newer,
  said,
  onDiscard,
}: {
  brainId: string;
  draft: string;
  newer: MemoryRevision | undefined;
  said: (r: MemoryRevision) => string;
  onDiscard: () => void;
}) {
  const ref = useFocusIfLost<HTMLDivElement>();
  return (
    <div className="status error" role="alert" tabIndex={-1} ref={ref}>
      <p className="error-title">Your correction was not saved</p>
      <p>
        {newer ? (
          <>
            This version was replaced while you were writing, so it can no longer be corrected. Correct the
            version in force instead: <Link to={paths.memory(brainId, newer.id)}>{said(newer)}</Link>.
          </>
        ) : (
          'This version stopped being in force while you were writing, so it can no longer be corrected.'
        )}{' '}
        What you wrote:
      </p>
      <blockquote className="quote" dir="auto">
        {draft}
      </blockquote>
      <div className="row">
        <span>
          <CopyButton text={draft} what="the text" label="Copy what you wrote" />
        </span>
        <button type="button" onClick={onDiscard}>
          Discard it
        </button>
      </div>
    </div>
  );
}

function CorrectForm({
  m,
  correct,
  draft,
  restored,
  onDraft,
}: {
  m: MemoryDetail;
  correct: ReturnType<typeof useCorrectMemory>;
  /**
   * What was written before this form was drawn: before a reload or a sign-in that ended, or while the
   * Memory could not be read for a while.
   */
  draft: CorrectionDraft | null;
  /** The draft was found in the tab's storage when the page opened. */
  restored: boolean;
  onDraft: (draft: CorrectionDraft | null) => void;
}) {
  // As the page words it ("Lucía's blood type is A+"), not as stored ("self blood type: A+"); a fact's
  // value as stored, so a date saved unchanged is the same date.
  const fact = factToCorrect(m);
  const shown = fact?.shown ?? statementLabel(m);
  const [form, setForm] = useState(() => formFromDraft(draft, shown));
  const { statement, withdraw, reason, holdsFrom } = form;
  // Every change is kept as it is made (nothing when the form is back to the Memory's own words).
  const change = (next: Partial<CorrectionForm>) => {
    const changed = { ...form, ...next };
    setForm(changed);
    onDraft(correctionDraft(changed, [m.statement, shown]));
  };
  const textarea = useRef<HTMLTextAreaElement>(null);
  const discard = () => {
    // Drawn enabled (a withdrawal unticked) before focus goes back to the words.
    flushSync(() => setForm(formFromDraft(null, shown)));
    onDraft(null);
    textarea.current?.focus();
  };
  const [confirming, setConfirming] = useState(false);
  // A day alone changes it: the same words, true from another day ("I start at Sonae" in January).
  const unchanged = !withdraw && !holdsFrom && [m.statement, shown].includes(statement.trim());
  // Sent with the engine's head again ("self blood type: B+"), so the value stays the slot's value a
  // later fact of the slot is compared with; what the person wrote after the head is kept as written.
  const written = statement.trim();
  const sent =
    fact !== null && written.startsWith(fact.shownHead)
      ? fact.storedHead + written.slice(fact.shownHead.length)
      : written;
  const save = () =>
    correct.mutate(
      {
        memoryId: m.id,
        ...(withdraw ? {} : { statement: sent }),
        ...(reason.trim() ? { reason: reason.trim() } : {}),
        ...(!withdraw && holdsFromInstant(holdsFrom) ? { validFrom: holdsFromInstant(holdsFrom) } : {}),
      },
      { onSettled: () => setConfirming(false) },
    );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (correct.isPending || unchanged) return;
    // Withdrawing cannot be undone from here (and may bring back an earlier value): asked first.
    if (withdraw) setConfirming(true);
    else save();
  };
  return (
    <section className="card" aria-labelledby="correct">
      <h2 id="correct">Correct</h2>
      <p className="hint">
        Your correction is kept as a Record of its own; the old version stays in the history.
      </p>
      <form className="form" onSubmit={submit}>
        <label>
          What is actually true
          <textarea
            ref={textarea}
            value={statement}
            onChange={(e) => change({ statement: e.target.value })}
            rows={2}
            disabled={withdraw}
            required={!withdraw}
            name="statement"
            aria-describedby={fact !== null ? 'stored-fact' : undefined}
          />
        </label>
        {fact !== null && m.predicate !== null ? (
          // The sentence is the page's wording: the fact as it is kept is here too, for whoever corrects it.
          <p id="stored-fact" className="hint">
            Kept as a fact: subject <q dir="auto">{m.subject}</q>, predicate <q dir="auto">{m.predicate}</q>,
            value <q dir="auto">{fact.value}</q>.
          </p>
        ) : null}
        <label className="check">
          <input
            type="checkbox"
            checked={withdraw}
            onChange={(e) => change({ withdraw: e.target.checked })}
          />
          It is simply wrong: withdraw it without a replacement
        </label>
        {/* A day a value of a slot starts (a job, a home); a statement of no slot is current from when it is known. */}
        {m.slot !== null ? (
          <>
            <label>
              Holds from <span className="hint">optional</span>
              <input
                type="date"
                value={withdraw ? '' : holdsFrom}
                onChange={(e) => change({ holdsFrom: e.target.value })}
                disabled={withdraw}
                name="holds_from"
                aria-describedby="holds-from-hint"
              />
            </label>
            <p id="holds-from-hint" className="hint">
              The day what you wrote became or becomes true, where it is not when this says. Until then, the
              value before this one holds.
            </p>
          </>
        ) : null}
        <label>
          Why <span className="hint">optional</span>
          <input
            value={reason}
            onChange={(e) => change({ reason: e.target.value })}
            name="reason"
            maxLength={2000}
          />
        </label>
        {correct.isError ? (
          <ErrorNotice
            error={correct.error}
            fields={{
              'content.statement': 'What is actually true',
              'content.reason': 'Why',
              'content.valid_from': 'Holds from',
              'content.corrects': 'This Memory',
            }}
          />
        ) : null}
        {restored && draft !== null && !correct.isSuccess ? (
          <p className="hint">Your correction from before is still here, not saved yet.</p>
        ) : null}
        <div className="row">
          {/* aria-disabled, not disabled: a disabled button would drop keyboard focus to <body>. */}
          <button
            type="submit"
            className="primary"
            aria-disabled={correct.isPending || unchanged || undefined}
          >
            {correct.isPending && !confirming ? 'Saving…' : withdraw ? 'Withdraw Memory' : 'Save correction'}
          </button>
          {draft !== null && !correct.isPending ? (
            <button type="button" onClick={discard}>
              Discard changes
            </button>
          ) : null}
        </div>
      </form>
      {confirming ? (
        <ConfirmDialog
          open
          title="Withdraw this Memory?"
          confirmLabel="Withdraw Memory"
          busy={correct.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={save}
        >
          <blockquote className="quote">{statementLabel(m)}</blockquote>
          <WithdrawalOutcome m={m} />
          <p>Forgetting the correction Record later (on Records) would bring it back.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

/** What withdrawing `m` leaves in its place, said before it is done. */
function WithdrawalOutcome({ m }: { m: MemoryDetail }) {
  const said = versionLabel(m);
  // The moment the dialog opened: "current" is read at it.
  const [now] = useState(() => Date.now());
  const next = currentAfterWithdrawal(m.revisions, m.id, now);
  if (!next)
    return (
      <p>It stays in its history, but agents are no longer told of it, and no other value takes its place.</p>
    );
  if (m.status === 'scheduled')
    return (
      <>
        <p>It stays in its history, but it will not start. The value current now stays current after that:</p>
        <blockquote className="quote">{said(next)}</blockquote>
      </>
    );
  // Already current beside it (another source disagrees): that one is then the only value.
  if (next.status === 'active')
    return (
      <>
        <p>
          It stays in its history, and agents are no longer told of it. Another source gives a different
          value, which stays current and is then the only one:
        </p>
        <blockquote className="quote">{said(next)}</blockquote>
      </>
    );
  return (
    <>
      <p>
        It stays in its history, and agents are no longer told of it.{' '}
        {/* An ending ("Ana no longer works at Acme") is no value: what comes back leaves none current. */}
        {endsValue(m)(next)
          ? `The earlier version (version ${next.version}) takes its place again, and agents are told of that instead, with no value current:`
          : `The earlier value (version ${next.version}) takes its place again, and agents are told of that instead:`}
      </p>
      <blockquote className="quote">{said(next)}</blockquote>
    </>
  );
}

function AcceptForm({ brainId, m }: { brainId: string; m: MemoryDetail }) {
  const accept = useAcceptObject(brainId);
  const [type, setType] = useState(slug(m.subject));
  const [key, setKey] = useState(slug(m.predicate ?? 'statement'));
  // The slot's value ("Lisbon"), not the words it was said in ("I live in Lisbon with my partner
  // Tom.", rules-v28): an Object holds the value. A Memory of no one value offers its statement.
  const [value, setValue] = useState(JSON.stringify(m.value ?? m.statement));
  const [parseError, setParseError] = useState<string | null>(null);
  const [done, setDone] = useState<AcceptedObject | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      setParseError('The value must be JSON: put text in double quotes, e.g. "Lisbon".');
      return;
    }
    setParseError(null);
    accept.mutate({ type, key, value: parsed as never }, { onSuccess: setDone });
  };
  return (
    <section className="card" aria-labelledby="accept">
      <h2 id="accept">Accept as Object</h2>
      <p className="hint">
        An Object is what your application takes as true from now on. Only a person can accept one, never an
        AI model.
      </p>
      <form className="form" onSubmit={submit}>
        <div className="row">
          <label>
            Type
            <input value={type} onChange={(e) => setType(e.target.value)} required name="object-type" />
          </label>
          <label>
            Key
            <input value={key} onChange={(e) => setKey(e.target.value)} required name="object-key" />
          </label>
        </div>
        <label>
          Value (JSON)
          <textarea
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              // The refusal was of the value as it was: once edited, it may be JSON now.
              if (parseError) setParseError(null);
            }}
            rows={2}
            className="mono"
            name="object-value"
            aria-invalid={parseError ? true : undefined}
            aria-describedby={parseError ? 'object-value-error' : undefined}
          />
        </label>
        {parseError ? (
          <p className="field-error" id="object-value-error" role="alert">
            {parseError}
          </p>
        ) : null}
        {accept.isError ? (
          <ErrorNotice error={accept.error} fields={{ type: 'Type', key: 'Key', value: 'Value (JSON)' }} />
        ) : null}
        {done ? (
          <p className="notice ok" role="status">
            Accepted as {done.type}/{done.key}, version {done.version}.
          </p>
        ) : null}
        <button type="submit" disabled={accept.isPending}>
          {accept.isPending ? 'Accepting…' : 'Accept as Object'}
        </button>
      </form>
    </section>
  );
}

/**
 * What withdrew a Memory, as said: "wait no, it's march 14" mended it, "the porto move is off" called
 * it off. Linked, so a person who finds the engine misread a reply can open it, and forget it.
 */
function WithdrawnBy({ brainId, by }: { brainId: string; by: NonNullable<MemoryDetail['withdrawn_by']> }) {
  const open = paths.record(brainId, by.record_id);
  // A correction's text is the engine's own ("retracted mem_…: …"): named, not quoted.
  if (by.kind === 'correction')
    return (
      <>
        Withdrawn by <Link to={open}>a correction</Link> of {formatDateTime(by.occurred_at)}.{' '}
      </>
    );
  return (
    <>
      Withdrawn by {by.speaker ? `${by.speaker}'s ${by.kind}` : `a ${by.kind}`} of{' '}
      {formatDateTime(by.occurred_at)}:{' '}
      <Link to={open} title="Open the Record">
        <q dir="auto">{oneLine(by.text, 160)}</q>
      </Link>
      .{' '}
    </>
  );
}

/** How often a group's words were said, and from when to when: "said 30 times, Jan 1, 2024, 9:00 AM – Jan 30, …". */
function timesSaid(group: EvidenceGroup): string {
  const { earliest, latest } = groupSpan(group);
  const from = evidenceWhen(earliest);
  const to = evidenceWhen(latest);
  return `said ${group.all.length.toLocaleString()} times, ${from === to ? from : `${from} – ${to}`}`;
}
