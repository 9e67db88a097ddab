import { useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ContextReady, ContextRequest, Memory } from '../../engine/contract/index.ts';
import { useClient } from '../api/client.ts';
import { keepLastAsked, readLastAsked, subscribeLastAsked } from '../api/last-asked.ts';
import { keys } from '../api/queries.ts';
import { ErrorNotice } from '../components/status.tsx';
import { RecordLink } from '../components/record-link.tsx';
import { memoryDays } from '../all-day.ts';
import { aboutLabel, quoteLabel, statementLabel } from '../record-text.ts';
import { costWords, localInputToIso, ownerLabel, truthPhrase } from '../format.ts';
import { Link } from '../router.tsx';
import { paths } from '../routes.ts';

const abstainWords: Record<string, string> = {
  no_evidence: 'Nothing in this Brain answers it.',
  conflicting_evidence: 'The sources disagree, so no single answer is given.',
  no_attribution: 'The question says “my”, but this Brain does not know whose memory it is.',
  out_of_policy: 'Answering is not allowed for this purpose.',
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
      <p className="lead">See exactly what an agent would be told for a question, and why.</p>
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
  // A cited Record's Memory, when the answer carries Memories: the quote links to what was learned.
  const memoryOf = new Map<string, Memory>();
  for (const m of c.memories ?? [])
    for (const cit of m.citations) if (!memoryOf.has(cit.record_id)) memoryOf.set(cit.record_id, m);
  return (
    <section className="card answer" aria-labelledby="answer">
      <h2 id="answer">What an agent would be told</h2>
      {/* The question this answers: the field above may have been edited since. */}
      <p className="muted">
        For: <q dir="auto">{c.query}</q>
      </p>
      {c.abstained ? (
        <p className="notice">
          <strong>No answer given.</strong> {abstainWords[c.abstained.reason] ?? c.abstained.reason}
        </p>
      ) : null}
      {c.text !== null ? (
        <pre className="context-text" dir="auto">
          {c.text}
        </pre>
      ) : c.budget.truncated ? (
        // Something was found, but not even its first block fits: "nothing answers" would be untrue.
        <p className="notice">
          What was found does not fit in {c.budget.requested_tokens.toLocaleString()} tokens, so nothing is
          shown. Raise the size limit and ask again.
        </p>
      ) : c.abstained ? null : (
        <p className="muted">Nothing answers this question.</p>
      )}
      {c.citations.length > 0 ? (
        <>
          <h3>Cited words</h3>
          <ul className="list compact">
            {c.citations.map((x, i) => {
              const memory = memoryOf.get(x.record_id);
              return (
                <li key={i}>
                  <mark>{memory ? quoteLabel(x.quote, memory) : x.quote}</mark>{' '}
                  {memory ? (
                    <Link to={paths.memory(brainId, memory.id)}>
                      the Memory<span className="visually-hidden">: {statementLabel(memory)}</span>
                    </Link>
                  ) : (
                    <RecordLink brainId={brainId} id={x.record_id} className="mono muted small" />
                  )}
                </li>
              );
            })}
          </ul>
        </>
      ) : null}
      {c.memories && c.memories.length > 0 ? (
        <>
          <h3 id="given">Memories an agent would be given</h3>
          <p className="hint">Most relevant first, as the engine ranked what it found.</p>
          <ol className="list compact" aria-labelledby="given">
            {c.memories.map((m) => (
              <li key={m.id}>
                <Link to={paths.memory(brainId, m.id)}>{statementLabel(m)}</Link>{' '}
                <span className="muted small">
                  {ownerLabel(m.owner)} ·{' '}
                  {truthPhrase(m.valid_from, m.valid_to, memoryDays(m) !== null, m.status)}
                </span>
              </li>
            ))}
          </ol>
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
                        // Named as the Memories list above names them, where it holds this one.
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
      {/* With nothing said at all, the question itself as its one unknown says again what is said above. */}
      {c.unknowns.length > 0 && !(c.text === null && c.unknowns.every((u) => u === c.query)) ? (
        <>
          <h3>Could not be answered</h3>
          <ul className="list compact">
            {c.unknowns.map((u, i) => (
              <li key={i}>{u}</li>
            ))}
          </ul>
        </>
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
