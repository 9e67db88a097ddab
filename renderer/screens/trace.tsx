import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Trace } from '../../engine/contract/index.ts';
import { isMnemoApiError } from '../../server/client/index.ts';
import { useClient } from '../api/client.ts';
import { traceOptions } from '../api/queries.ts';
import { useRecordWords, type RecordWords } from '../api/record-words.ts';
import { useSelfName } from '../api/self-name.ts';
import { BarChart } from '../components/bar-chart.tsx';
import { Empty, ErrorNotice, Loading, errorHidesData } from '../components/status.tsx';
import { RecordLink } from '../components/record-link.tsx';
import { costWords, crumbWords, formatDateTime, plural } from '../format.ts';
import { citedQuoteLabel } from '../record-text.ts';
import { Link } from '../router.tsx';
import { paths } from '../routes.ts';
import { useSeen } from '../use-seen.ts';
import { laneLabel, outcomeLabel, recordName, stageLabel, wordsLoading } from '../trace-words.ts';

/** Bars per search lane and for the combined ranking: the rest of a lane of 150 adds nothing to read. */
const laneBars = 15;
const rankingBars = 40;

/**
 * Ids of Records whose words are wanted: those of the parts of the page that have come into view.
 * A trace holds ids only, and the API reads Records one by one, so a trace of 50 candidates would
 * otherwise cost 50 requests before anyone scrolled.
 */
function useWanted(): [string[], (ids: readonly string[]) => void] {
  const [wanted, setWanted] = useState<string[]>([]);
  const want = useCallback(
    (ids: readonly string[]) =>
      setWanted((prev) => {
        const more = ids.filter((id) => !prev.includes(id));
        return more.length ? [...prev, ...more] : prev;
      }),
    [],
  );
  return [wanted, want];
}

/** A part of the page that asks for the words of its Records once it comes into view. */
function Wants({
  ids,
  want,
  children,
}: {
  ids: readonly string[];
  want: (ids: readonly string[]) => void;
  children: ReactNode;
}) {
  const [ref, seen] = useSeen<HTMLDivElement>();
  const key = ids.join(' ');
  useEffect(() => {
    if (seen) want(key ? key.split(' ') : []);
  }, [seen, key, want]);
  return <div ref={ref}>{children}</div>;
}

export function TraceScreen({ brainId, traceId }: { brainId: string; traceId: string }) {
  const client = useClient();
  const trace = useQuery(traceOptions(client, brainId, traceId));
  const [wanted, want] = useWanted();
  const words = useRecordWords(brainId, wanted);
  return (
    <>
      <p className="crumbs">
        {/* The trace by its question once read, as the list names it; its id on hover and under Id. */}
        <Link to={paths.brain(brainId, 'traces')}>Traces</Link> /{' '}
        {trace.data === undefined ? (
          <span className="mono">{traceId}</span>
        ) : (
          <span dir="auto" title={traceId}>
            “{crumbWords(trace.data.query)}”
          </span>
        )}
      </p>
      {trace.isPending ? (
        <Loading what="this trace" />
      ) : trace.data === undefined || errorHidesData(trace) ? (
        isMnemoApiError(trace.error) && trace.error.code === 'trace_not_found' ? (
          // Said in words: a trace the server no longer holds is the usual case, not a fault.
          <>
            <h1 tabIndex={-1}>This trace is no longer kept</h1>
            <p className="lead">
              Mnemo keeps only the traces of recent questions: older ones give way to newer ones, restarting
              Mnemo may clear them, and forgetting a Record drops every trace that named it. Or the address is
              mistyped.
            </p>
            <p className="error-meta">
              Code <code>trace_not_found</code>
            </p>
            <p>
              <Link to={paths.brain(brainId, 'ask')}>Ask the question again</Link> to see a fresh trace.
            </p>
          </>
        ) : (
          <>
            <h1 tabIndex={-1}>Trace</h1>
            <ErrorNotice error={trace.error} />
          </>
        )
      ) : (
        <TraceView brainId={brainId} t={trace.data} words={words} want={want} />
      )}
    </>
  );
}

function TraceView({
  brainId,
  t,
  words,
  want,
}: {
  brainId: string;
  t: Trace;
  words: RecordWords;
  want: (ids: readonly string[]) => void;
}) {
  const selfName = useSelfName(brainId);
  const timings = Object.entries(t.timings_ms);
  const cut = new Set(t.budget.cut.map((c) => c.record_id));
  const name = (id: string) => recordName(id, words.words, words.failed);
  const best = (n: number, of: number) => (of > n ? `, the best ${n} shown` : '');
  return (
    <>
      <h1 tabIndex={-1}>“{t.query}”</h1>
      <dl className="facts">
        <dt>Asked</dt>
        <dd>{formatDateTime(t.created_at)}</dd>
        <dt>Mode</dt>
        <dd>{t.mode}</dd>
        <dt>Outcome</dt>
        <dd>
          {t.error
            ? `Failed: ${t.error.message} (${t.error.code})`
            : t.abstained
              ? `No answer: ${t.abstained.replace(/_/g, ' ')}`
              : outcomeLabel(t.status)}
        </dd>
        {/* A request that failed before it was sized has no size to show ("0 of 0 tokens"). */}
        {t.error && t.budget.requested_tokens === 0 ? null : (
          <>
            <dt>Size</dt>
            <dd>
              {t.budget.estimated_tokens.toLocaleString()} of {t.budget.requested_tokens.toLocaleString()}{' '}
              tokens
              {t.budget.truncated ? ', cut to fit' : ''}
            </dd>
          </>
        )}
        <dt>Request</dt>
        <dd className="mono small">{t.request_id}</dd>
        <dt>Id</dt>
        <dd className="mono small wrap-anywhere">{t.id}</dd>
      </dl>

      <section aria-labelledby="lanes">
        <h2 id="lanes">How each search found candidates</h2>
        {t.lanes.length === 0 ? (
          <Empty title="No search ran" />
        ) : (
          t.lanes.map((lane) => (
            <Wants
              key={lane.name}
              ids={lane.candidates.slice(0, laneBars).map((c) => c.record_id)}
              want={want}
            >
              <div className="lane">
                {lane.candidates.length === 0 ? (
                  // Said as a chart's caption is, with no chart: a lane that found nothing is no news.
                  <figure className="chart">
                    <figcaption title={lane.name}>
                      {laneLabel(lane.name)}: nothing found in {lane.ms.toFixed(1)} ms
                    </figcaption>
                  </figure>
                ) : (
                  <BarChart
                    title={`${laneLabel(lane.name)}: ${plural(lane.candidates.length, 'candidate')} in ${lane.ms.toFixed(1)} ms${best(laneBars, lane.candidates.length)}`}
                    code={lane.name}
                    bars={lane.candidates.slice(0, laneBars).map((c) => ({
                      label: `#${c.rank} ${name(c.record_id)}`,
                      code: c.record_id,
                      value: c.score,
                      note: `${c.score.toFixed(3)} · ${c.reason}`,
                    }))}
                  />
                )}
              </div>
            </Wants>
          ))
        )}
      </section>

      <section aria-labelledby="fusion">
        <h2 id="fusion">Combined ranking</h2>
        <p className="muted small">Method: {t.fusion.method}</p>
        {t.fusion.results.length === 0 ? (
          <Empty title="Nothing to combine" />
        ) : (
          <Wants ids={t.fusion.results.slice(0, rankingBars).map((r) => r.record_id)} want={want}>
            <BarChart
              title={`Records in their final order; bars show the combined score, the reranker (when it ran) set the order; grey bars were cut to fit the size limit${best(rankingBars, t.fusion.results.length)}`}
              bars={t.fusion.results.slice(0, rankingBars).map((r) => ({
                label: name(r.record_id),
                code: r.record_id,
                value: r.score,
                note: `${r.score.toFixed(3)}${r.rerank_score == null ? '' : ` · reranker ${r.rerank_score.toFixed(2)}`} · ${r.lanes.join(', ')}${cut.has(r.record_id) ? ' · cut' : ''}`,
                tone: cut.has(r.record_id) ? 'muted' : 'default',
              }))}
            />
          </Wants>
        )}
      </section>

      <section aria-labelledby="cut">
        <h2 id="cut">Left out to fit</h2>
        {t.budget.cut.length === 0 ? (
          <p className="muted">Nothing was cut.</p>
        ) : (
          <Wants ids={t.budget.cut.map((c) => c.record_id)} want={want}>
            {/* One line a Record, its words cut to fit: the row keeps its height when they arrive, and
                the whole of them is a click away, on the Record's page. */}
            <ul className="list compact cut-list">
              {t.budget.cut.map((c) => {
                const shown = name(c.record_id);
                return (
                  <li key={c.record_id}>
                    {shown === wordsLoading ? (
                      <span className="one-line muted" title={c.record_id}>
                        {shown}
                      </span>
                    ) : (
                      <Link
                        to={paths.record(brainId, c.record_id)}
                        className="one-line"
                        title={c.record_id}
                        dir="auto"
                      >
                        {shown}
                      </Link>
                    )}{' '}
                    <span className="muted">({c.tokens} tokens)</span>
                  </li>
                );
              })}
            </ul>
          </Wants>
        )}
      </section>

      <section aria-labelledby="timings">
        <h2 id="timings">Where the time went</h2>
        {timings.length === 0 ? (
          <p className="muted">No timings were recorded.</p>
        ) : (
          <BarChart
            title="Milliseconds per stage"
            unit=" ms"
            bars={timings.map(([stage, ms]) => ({
              label: stageLabel(stage),
              code: stage,
              value: ms,
              note: `${ms.toFixed(2)} ms`,
            }))}
          />
        )}
      </section>

      <section aria-labelledby="trace-citations">
        <h2 id="trace-citations">Cited</h2>
        {t.citations.length === 0 ? (
          <p className="muted">Nothing was cited.</p>
        ) : (
          // A quote that may be a fact's line ("Lea vegetarian: yes") reads its Record, to be worded as
          // the fact's sentence is everywhere else: a Trace says the quote, not its Record's kind.
          <Wants ids={t.citations.filter((c) => c.quote.includes(': ')).map((c) => c.record_id)} want={want}>
            <ul className="list compact">
              {t.citations.map((c, i) => (
                <li key={i}>
                  <mark dir="auto">
                    {citedQuoteLabel(c.quote, words.contents.get(c.record_id), selfName)}
                  </mark>{' '}
                  <RecordLink brainId={brainId} id={c.record_id} className="mono muted small" />
                </li>
              ))}
            </ul>
          </Wants>
        )}
        <p className="meta">Cost: {costWords(t.cost)}</p>
      </section>
    </>
  );
}
