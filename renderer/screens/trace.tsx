import { useQueries, useQuery } from '@tanstack/react-query';
import type { Trace } from '../../engine/contract/index.ts';
import { useClient } from '../api/client.ts';
import { recordOptions, traceOptions } from '../api/queries.ts';
import { BarChart } from '../components/bar-chart.tsx';
import { ClampedText } from '../components/clamped-text.tsx';
import { Empty, ErrorNotice, Loading, errorHidesData } from '../components/status.tsx';
import { formatDateTime } from '../format.ts';
import { Link } from '../router.tsx';
import { recordSummary } from '../record-text.ts';
import { paths } from '../routes.ts';

/** Record ids share their time prefix; the tail tells them apart in a chart label. */
const shortId = (id: string) => (id.length > 14 ? `${id.slice(0, 4)}…${id.slice(-8)}` : id);

/** Bars per search lane and for the combined ranking: the rest of a lane of 150 adds nothing to read. */
const laneBars = 15;
const rankingBars = 40;

/**
 * The words of the Records a trace names, so its charts say what each candidate is. Read live:
 * a trace holds ids only, and a Record forgotten since shows as its id.
 */
function useRecordWords(brainId: string, t: Trace | undefined): Map<string, string> {
  const client = useClient();
  const ids = t
    ? [
        ...new Set([
          ...t.fusion.results.slice(0, rankingBars).map((r) => r.record_id),
          ...t.lanes.flatMap((l) => l.candidates.slice(0, laneBars).map((c) => c.record_id)),
        ]),
      ]
    : [];
  const records = useQueries({ queries: ids.map((id) => recordOptions(client, brainId, id)) });
  const words = new Map<string, string>();
  records.forEach((r, i) => {
    if (r.data) words.set(ids[i]!, recordSummary(r.data.content));
  });
  return words;
}

export function TraceScreen({ brainId, traceId }: { brainId: string; traceId: string }) {
  const client = useClient();
  const trace = useQuery(traceOptions(client, brainId, traceId));
  const words = useRecordWords(brainId, trace.data);
  return (
    <>
      <p className="crumbs">
        <Link to={paths.brain(brainId, 'traces')}>Traces</Link> / <span className="mono">{traceId}</span>
      </p>
      {trace.isPending ? (
        <Loading what="this trace" />
      ) : trace.data === undefined || errorHidesData(trace) ? (
        <>
          <h1 tabIndex={-1}>Trace</h1>
          <ErrorNotice error={trace.error} />
        </>
      ) : (
        <TraceView t={trace.data} words={words} />
      )}
    </>
  );
}

function TraceView({ t, words }: { t: Trace; words: Map<string, string> }) {
  const timings = Object.entries(t.timings_ms);
  const cut = new Set(t.budget.cut.map((c) => c.record_id));
  const name = (id: string) => words.get(id) ?? shortId(id);
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
              : t.status}
        </dd>
        <dt>Size</dt>
        <dd>
          {t.budget.estimated_tokens} of {t.budget.requested_tokens} tokens
          {t.budget.truncated ? ', cut to fit' : ''}
        </dd>
        <dt>Request</dt>
        <dd className="mono small">{t.request_id}</dd>
      </dl>

      <section aria-labelledby="lanes">
        <h2 id="lanes">How each search found candidates</h2>
        {t.lanes.length === 0 ? (
          <Empty title="No search ran" />
        ) : (
          t.lanes.map((lane) => (
            <div key={lane.name} className="lane">
              {lane.candidates.length === 0 ? (
                <p>
                  <strong>{lane.name}</strong>: nothing found ({lane.ms.toFixed(1)} ms)
                </p>
              ) : (
                <BarChart
                  title={`${lane.name} search: ${lane.candidates.length} candidates in ${lane.ms.toFixed(1)} ms${best(laneBars, lane.candidates.length)}`}
                  bars={lane.candidates.slice(0, laneBars).map((c) => ({
                    label: `#${c.rank} ${name(c.record_id)}`,
                    value: c.score,
                    note: `${c.score.toFixed(3)} · ${c.reason}`,
                  }))}
                />
              )}
            </div>
          ))
        )}
      </section>

      <section aria-labelledby="fusion">
        <h2 id="fusion">Combined ranking</h2>
        <p className="muted small">Method: {t.fusion.method}</p>
        {t.fusion.results.length === 0 ? (
          <Empty title="Nothing to combine" />
        ) : (
          <BarChart
            title={`Records in their final order; bars show the combined score, the reranker (when it ran) set the order; grey bars were cut to fit the size limit${best(rankingBars, t.fusion.results.length)}`}
            bars={t.fusion.results.slice(0, rankingBars).map((r) => ({
              label: name(r.record_id),
              value: r.score,
              note: `${r.score.toFixed(3)}${r.rerank_score == null ? '' : ` · reranker ${r.rerank_score.toFixed(2)}`} · ${r.lanes.join(', ')}${cut.has(r.record_id) ? ' · cut' : ''}`,
              tone: cut.has(r.record_id) ? 'muted' : 'default',
            }))}
          />
        )}
      </section>

      <section aria-labelledby="cut">
        <h2 id="cut">Left out to fit</h2>
        {t.budget.cut.length === 0 ? (
          <p className="muted">Nothing was cut.</p>
        ) : (
          <ul className="list compact">
            {t.budget.cut.map((c) => (
              <li key={c.record_id}>
                {words.has(c.record_id) ? (
                  <ClampedText text={words.get(c.record_id)!} limit={200} />
                ) : (
                  <span className="mono">{c.record_id}</span>
                )}{' '}
                ({c.tokens} tokens)
              </li>
            ))}
          </ul>
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
            bars={timings.map(([stage, ms]) => ({ label: stage, value: ms, note: `${ms.toFixed(2)} ms` }))}
          />
        )}
      </section>

      <section aria-labelledby="trace-citations">
        <h2 id="trace-citations">Cited</h2>
        {t.citations.length === 0 ? (
          <p className="muted">Nothing was cited.</p>
        ) : (
          <ul className="list compact">
            {t.citations.map((c, i) => (
              <li key={i}>
                <mark>{c.quote}</mark> <span className="mono muted small">{c.record_id}</span>
              </li>
            ))}
          </ul>
        )}
        <p className="meta">
          Cost: {t.cost.generative_calls} generative, {t.cost.embedding_calls} embedding calls,{' '}
          {t.cost.processing_units} processing units
        </p>
      </section>
    </>
  );
}
