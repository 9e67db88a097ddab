import { useQuery } from '@tanstack/react-query';
import type { Trace } from '../../engine/contract/index.ts';
import { useClient } from '../api/client.ts';
import { traceOptions } from '../api/queries.ts';
import { BarChart } from '../components/bar-chart.tsx';
import { Empty, ErrorNotice, Loading, errorHidesData } from '../components/status.tsx';
import { formatDateTime } from '../format.ts';
import { Link } from '../router.tsx';
import { paths } from '../routes.ts';

/** Record ids share their time prefix; the tail tells them apart in a chart label. */
const shortId = (id: string) => (id.length > 14 ? `${id.slice(0, 4)}…${id.slice(-8)}` : id);

export function TraceScreen({ brainId, traceId }: { brainId: string; traceId: string }) {
  const client = useClient();
  const trace = useQuery(traceOptions(client, brainId, traceId));
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
        <TraceView t={trace.data} />
      )}
    </>
  );
}

function TraceView({ t }: { t: Trace }) {
  const timings = Object.entries(t.timings_ms);
  const cut = new Set(t.budget.cut.map((c) => c.record_id));
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
                  title={`${lane.name} search: ${lane.candidates.length} candidates in ${lane.ms.toFixed(1)} ms`}
                  bars={lane.candidates.map((c) => ({
                    label: `#${c.rank} ${shortId(c.record_id)}`,
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
        <h2 id="fusion">Combined ranking ({t.fusion.method})</h2>
        {t.fusion.results.length === 0 ? (
          <Empty title="Nothing to combine" />
        ) : (
          <BarChart
            title="Records in their final order; bars show the combined score, the reranker (when it ran) set the order; grey bars were cut to fit the size limit"
            bars={t.fusion.results.map((r) => ({
              label: shortId(r.record_id),
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
                <span className="mono">{c.record_id}</span> ({c.tokens} tokens)
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
