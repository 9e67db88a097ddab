import { useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Citation, ContextReady, ContextRequest, Memory } from '../../engine/contract/index.ts';
import { useClient } from '../api/client.ts';
import { keepLastAsked, readLastAsked, subscribeLastAsked } from '../api/last-asked.ts';
import { keys, recordOptions } from '../api/queries.ts';
import { useSelfName } from '../api/self-name.ts';
import { ErrorNotice } from '../components/status.tsx';
import { memoryDays } from '../all-day.ts';
import { answerEvidence, type EvidenceItem } from '../ask-evidence.ts';
import {
  aboutLabel,
  citedQuoteLabel,
  quoteAddsWords,
  quoteLabel,
  sameWordsLabel,
  statementLabel,
} from '../record-text.ts';
import { costWords, localInputToIso, oneLine, ownerLabel, plural, truthPhrase } from '../format.ts';
import { Link } from '../router.tsx';
import { paths } from '../routes.ts';

/** Why no answer was given, and what an agent is told instead, in words. */
const abstainWords: Record<string, string> = {
  no_evidence: 'Nothing in this Brain answers it. An agent is told so, rather than given a guess.',
  conflicting_evidence:
    'The sources disagree, so no single answer is given. An agent is given what each says, and told they disagree.',
  no_attribution:
    'The question says “my”, but this Brain does not know whose memory it is, so it cannot tell whose “my” means.',
  out_of_policy:
    'Answering is not allowed for this purpose: only Records marked shareable may leave this device, and what answers it is kept here.',
};

/** What the API takes as a purpose: one lower-case word. */
const purposePattern = /^[a-z][a-z0-9_-]{0,39}$/;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });

export function AskScreen({ brainId }: { brainId: string }) {
  const client = useClient();
  const qc = useQueryClient();
  const [asked] = useState(() => readLastAsked(brainId));
  const [query, setQuery] = useState(asked?.query ?? '');
  const [mode, setMode] = useState<'fast' | 'thorough'>('fast');
  const [tokens, setTokens] = useState('4000');
  const [asOf, setAsOf] = useState('');
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [sources, setSources] = useState('');
  const [purpose, setPurpose] = useState('');
  const ask = useMutation({
    mutationFn: async (body: ContextRequest) => {
      // Sent without a watermark, only a thorough question over the server's synchronous budget is
      // answered 202: the very same request, sent again, gets the finished Context (a watermark added
      // to the retry would make it another request, assembled afresh).
      let { context } = await client.createContext(brainId, body);
      for (let i = 0; i < 20 && context.status === 'processing'; i += 1) {
        await sleep(500);
        ({ context } = await client.createContext(brainId, body));
      }
      return context;
    },
    onSuccess: (context, body) => {
      if (context.status === 'ready') keepLastAsked(brainId, body.query, context);
    },
    onSettled: () => qc.invalidateQueries({ queryKey: keys.traces(brainId) }),
  });
  // The answer kept for the Brain, or none once it was dropped: a Memory it gave was forgotten or
  // corrected meanwhile, and its words must not stay on screen.
  const kept = useSyncExternalStore(subscribeLastAsked, () => readLastAsked(brainId));
  const fromKept = (ask.isSuccess && ask.data.status === 'ready') || (ask.isIdle && asked !== null);
  const shown = fromKept ? kept?.context : ask.data;
  const outdated = fromKept && kept === null;
  const [purposeError, setPurposeError] = useState<string | null>(null);
  // Asked with nothing but spaces: said, not silently ignored.
  const [blank, setBlank] = useState(false);
  const moreFilters = useRef<HTMLDetailsElement>(null);
  const purposeInput = useRef<HTMLInputElement>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (ask.isPending) return;
    setBlank(!query.trim());
    if (!query.trim()) return;
    // Checked here, not by the browser: a field inside folded "More filters" cannot show its message.
    if (purpose.trim() && !purposePattern.test(purpose.trim())) {
      setPurposeError('Purpose is one lower-case word (letters, digits, - or _), e.g. support.');
      if (moreFilters.current) moreFilters.current.open = true;
      purposeInput.current?.focus();
      return;
    }
    setPurposeError(null);
    const body: ContextRequest = {
      query: query.trim(),
      mode,
      include: ['memories', 'citations', 'unknowns', 'conflicts'],
    };
    const n = Number(tokens);
    if (tokens && Number.isInteger(n) && n > 0) body.budget = { tokens: n };
    const asOfIso = localInputToIso(asOf);
    if (asOfIso) body.as_of = asOfIso;
    if (purpose.trim()) body.purpose = purpose.trim();
    const filter: NonNullable<ContextRequest['filter']> = {};
    const s = localInputToIso(since);
    const u = localInputToIso(until);
    if (s) filter.since = s;
    if (u) filter.until = u;
    const list = sources
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
    if (list.length) filter.sources = list;
    if (Object.keys(filter).length) body.filter = filter;
    ask.mutate(body);
  };
  return (
    <>
      <h1 tabIndex={-1}>Ask</h1>
      <p className="lead">
        See what this Brain knows about a question, where each part comes from, and what an agent would be
        told.
      </p>
      <form className="form card" onSubmit={submit} aria-label="Ask this Brain">
        <label>
          Question
          <input
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setBlank(false);
            }}
            required
            name="query"
            placeholder="e.g. Where does Ana live?"
            maxLength={4000}
          />
        </label>
        <div className="row">
          <label>
            How hard to look
            <select value={mode} onChange={(e) => setMode(e.target.value as 'fast' | 'thorough')}>
              <option value="fast">Fast</option>
              <option value="thorough">Thorough</option>
            </select>
          </label>
          <label>
            Size limit (tokens)
            <input
              type="number"
              min={1}
              max={100000}
              value={tokens}
              onChange={(e) => setTokens(e.target.value)}
            />
          </label>
          <label>
            As it was on
            <input type="datetime-local" value={asOf} onChange={(e) => setAsOf(e.target.value)} />
          </label>
        </div>
        <details ref={moreFilters}>
          <summary>More filters</summary>
          <div className="row">
            <label>
              Records from
              <input type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} />
            </label>
            <label>
              Records until
              <input type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} />
            </label>
            <label>
              Only these sources <span className="hint">comma-separated</span>
              <input value={sources} onChange={(e) => setSources(e.target.value)} />
            </label>
            <label>
              Purpose <span className="hint">one word</span>
              <input
                ref={purposeInput}
                value={purpose}
                onChange={(e) => setPurpose(e.target.value)}
                aria-invalid={purposeError ? true : undefined}
                aria-describedby={purposeError ? 'purpose-error' : undefined}
              />
            </label>
            {purposeError ? (
              <p className="field-error" id="purpose-error" role="alert">
                {purposeError}
              </p>
            ) : null}
          </div>
        </details>
        {blank ? (
          <p className="field-error" role="alert">
            Write a question first: one of only spaces cannot be asked.
          </p>
        ) : null}
        {/* aria-disabled, not disabled: a disabled button would drop keyboard focus to <body>. */}
        <button type="submit" className="primary" aria-disabled={ask.isPending || undefined}>
          {ask.isPending ? 'Asking…' : 'Ask'}
        </button>
      </form>
      <div aria-live="polite">
        {ask.isError ? (
          <ErrorNotice
            error={ask.error}
            fields={{
              query: 'Question',
              mode: 'How hard to look',
              'budget.tokens': 'Size limit (tokens)',
              as_of: 'As it was on',
              'filter.since': 'Records from',
              'filter.until': 'Records until',
              'filter.sources': 'Only these sources',
              purpose: 'Purpose',
            }}
          />
        ) : null}
        {shown?.status === 'processing' ? (
          <p className="notice">Still putting a thorough answer together. Ask again in a moment.</p>
        ) : null}
        {shown?.status === 'ready' ? <Answer brainId={brainId} c={shown} /> : null}
        {outdated ? (
          <p className="notice">
            The answer is no longer shown: something it quoted was forgotten or corrected since. Ask again to
            see what an agent would be told now.
          </p>
        ) : null}
      </div>
    </>
  );
}

function Answer({ brainId, c }: { brainId: string; c: ContextReady }) {
  const { items, alsoQuoted, byMeaningAlone, otherUnknowns } = answerEvidence(c);
  return (
    <section className="card answer" aria-labelledby="answer">
      <h2 id="answer">What this Brain knows</h2>
      {/* The question this answers: the field above may have been edited since. */}
      <p className="muted">
        For: <q dir="auto">{c.query}</q>
      </p>
      {c.abstained ? (
        <div className="notice">
          <p>
            <strong>No answer given.</strong> {abstainWords[c.abstained.reason] ?? c.abstained.reason}
          </p>
          {c.abstained.reason === 'conflicting_evidence' ? (
            <p>
              <Link to={paths.brain(brainId, 'conflicts')}>Pick the value that holds in Conflicts</Link>, and
              the answer gives it.
            </p>
          ) : null}
        </div>
      ) : null}
      {byMeaningAlone ? (
        <p className="notice">
          <strong>Only near the question.</strong> Nothing found shares a word, a name, a time or a known fact
          with it: what follows is what comes closest in meaning, and may not answer it. An agent is told so
          too.
        </p>
      ) : null}
      {c.text === null ? (
        c.budget.truncated ? (
          // Something was found, but not even its first block fits: "nothing answers" would be untrue.
          <p className="notice">
            What was found does not fit in {c.budget.requested_tokens.toLocaleString()} tokens, so nothing is
            shown. Raise the size limit and ask again.
          </p>
        ) : c.abstained ? null : (
          <p className="muted">Nothing answers this question.</p>
        )
      ) : null}
      {items.length > 0 ? (
        <>
          <h3 id="given">What it rests on</h3>
          <p className="hint">Most relevant first, as the engine ranked what it found.</p>
          <ol className="list" aria-labelledby="given">
            {items.map((item) => (
              <EvidenceRow key={item.memory.id} brainId={brainId} item={item} />
            ))}
          </ol>
        </>
      ) : null}
      {alsoQuoted.length > 0 ? (
        <>
          <h3 id="also-quoted">{items.length > 0 ? 'Also quoted' : 'Quoted'}</h3>
          <p className="hint">
            {items.length > 0
              ? 'Words of Records none of the Memories above is drawn from, given to an agent as they are.'
              : 'Words of Records, given to an agent as they are.'}
          </p>
          <ul className="list" aria-labelledby="also-quoted">
            {alsoQuoted.map((x) => (
              <AlsoQuoted key={x.record_id} brainId={brainId} x={x} />
            ))}
          </ul>
        </>
      ) : null}
      {c.conflicts.length > 0 ? (
        <>
          <h3>Disagreements</h3>
          <ul className="list compact">
            {c.conflicts.map((k, i) => (
              <li key={i}>
                {aboutLabel(k)}:{' '}
                {k.values.map((v, j) => (
                  <span key={v.memory_id}>
                    {j > 0 ? ' vs ' : ''}
                    <Link to={paths.memory(brainId, v.memory_id)}>
                      “
                      {statementLabel({
                        statement: v.statement,
                        subject: k.subject,
                        predicate: k.predicate,
                        // Named as the list above names them, where it holds this one.
                        owner: c.memories?.find((x) => x.id === v.memory_id)?.owner,
                      })}
                      ”
                    </Link>
                  </span>
                ))}{' '}
                (<Link to={paths.brain(brainId, 'conflicts')}>pick one in Conflicts</Link>)
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {otherUnknowns.length > 0 ? (
        <>
          <h3>Could not be answered</h3>
          <ul className="list compact">
            {otherUnknowns.map((u, i) => (
              <li key={i} dir="auto">
                {u}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {c.text !== null ? (
        // The prompt block itself, for whoever wants to see it word for word: its bracketed headers
        // are written for an agent to read, and what they say is said above in words.
        <details className="agent-text">
          <summary>What an agent would receive</summary>
          <p className="hint">
            The text an agent is given for this question, word for word: the Records quoted above, each under
            a line that says what it is.
          </p>
          <pre className="context-text" dir="auto">
            {c.text}
          </pre>
        </details>
      ) : null}
      <dl className="facts">
        <dt>Size</dt>
        <dd>
          {c.budget.estimated_tokens.toLocaleString()} of {c.budget.requested_tokens.toLocaleString()} tokens
          {c.budget.truncated ? ' — cut to fit' : ''}
        </dd>
        <dt>Cost</dt>
        <dd>{costWords(c.cost)}</dd>
      </dl>
      <p>
        <Link to={paths.trace(brainId, c.id)}>See how this answer was put together</Link>
      </p>
    </section>
  );
}

/** One Memory of the answer: what it says, whose it is, when it holds, and the Records it comes from. */
function EvidenceRow({ brainId, item }: { brainId: string; item: EvidenceItem }) {
  const m = item.memory;
  return (
    <li className="list-item evidence">
      <Link to={paths.memory(brainId, m.id)} className="evidence-statement" dir="auto">
        {statementLabel(m)}
      </Link>
      <p className="meta">
        <span>Whose: {ownerLabel(m.owner)}</span>
        <span>{truthPhrase(m.valid_from, m.valid_to, memoryDays(m) !== null, m.status)}</span>
      </p>
      <ul className="sources" aria-label={`Where “${oneLine(statementLabel(m), 60)}” comes from`}>
        {item.sources.map((x) => (
          <Source key={x.record_id} brainId={brainId} m={m} x={x} />
        ))}
        {item.more > 0 ? (
          <li>
            <Link to={paths.memory(brainId, m.id)}>
              {plural(item.more, 'more Record')}
              <span className="visually-hidden"> for “{oneLine(statementLabel(m), 60)}”</span>
            </Link>{' '}
            <span className="muted">on the Memory’s page</span>
          </li>
        ) : null}
      </ul>
    </li>
  );
}

/**
 * The kind of a quoted Record where its quote may be a fact's line ("Marko birthday: March 13"), which
 * is shown as a sentence ("Marko's birthday is March 13"). A citation does not say its Record's kind,
 * so such a quote reads its Record (cached for good: Records never change); any other quote reads
 * nothing, and a message's "self care: went for a run" stays as said.
 */
function useQuotedRecord(brainId: string, x: Citation, mayBeFact: boolean) {
  const client = useClient();
  return useQuery({
    ...recordOptions(client, brainId, x.record_id),
    enabled: mayBeFact && x.quote.includes(': '),
  }).data;
}

/** One Record a Memory of the answer comes from: its quote where it says more than the Memory's line. */
function Source({ brainId, m, x }: { brainId: string; m: Memory; x: Citation }) {
  const kind = useQuotedRecord(brainId, x, x.quote !== m.statement)?.content.kind;
  return (
    <li>
      {quoteAddsWords(x.quote, m, kind) ? (
        <mark dir="auto">{quoteLabel(x.quote, m, kind)}</mark>
      ) : (
        <span className="muted">{sameWordsLabel(m, kind)}</span>
      )}{' '}
      <SourceLink brainId={brainId} id={x.record_id} about={quoteLabel(x.quote, m, kind)} />
    </li>
  );
}

/**
 * A quote of a Record no Memory of the answer comes from: its words as they are, but a fact's line,
 * which is no one's words, as a sentence (the fact's, as the Records page says it).
 */
function AlsoQuoted({ brainId, x }: { brainId: string; x: Citation }) {
  const record = useQuotedRecord(brainId, x, true);
  const selfName = useSelfName(brainId);
  const said = citedQuoteLabel(x.quote, record?.content, selfName);
  return (
    <li className="list-item evidence">
      <blockquote className="quote" dir="auto">
        <mark>{said}</mark>
      </blockquote>
      <p className="meta">
        <SourceLink brainId={brainId} id={x.record_id} about={said} />
      </p>
    </li>
  );
}

/**
 * A Record the answer quotes, named in words: its id says nothing to a person (it is the link's
 * tooltip, for whoever needs it), and to a screen reader the link says which quote it opens.
 */
function SourceLink({ brainId, id, about }: { brainId: string; id: string; about: string }) {
  return (
    <Link to={paths.record(brainId, id)} className="small" title={id}>
      open the Record<span className="visually-hidden">: “{oneLine(about, 60)}”</span>
    </Link>
  );
}
