import { useRef } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useClient } from '../api/client.ts';
import { traceListOptions } from '../api/queries.ts';
import { usePendingRows } from '../api/pending-rows.ts';
import { ShowMore } from '../components/show-more.tsx';
import { Empty, ErrorNotice, Loading, errorHidesData } from '../components/status.tsx';
import { formatDateTime } from '../format.ts';
import { Link } from '../router.tsx';
import { paths } from '../routes.ts';
import { outcomeLabel } from '../trace-words.ts';
import { TableScroll } from '../components/table-scroll.tsx';
import { useWindowRows } from '../use-window-rows.ts';
import { RowSpacer } from '../components/row-spacer.tsx';

export function TracesScreen({ brainId }: { brainId: string }) {
  const client = useClient();
  const listOptions = traceListOptions(client, brainId);
  const traces = useInfiniteQuery(listOptions);
  usePendingRows(
    listOptions.queryKey,
    traces.data,
    (cursor) => client.listTraces(brainId, { limit: 50, ...(cursor ? { cursor } : {}) }),
    2000,
  );
  const rows = traces.data?.pages.flatMap((p) => p.data) ?? [];
  // Paged back to the oldest kept, hundreds of rows: only those near the window are drawn.
  const body = useRef<HTMLTableSectionElement>(null);
  const shown = useWindowRows(rows.length, body);
  return (
    <>
      <h1 tabIndex={-1}>Traces</h1>
      <p className="lead">
        The most recent questions asked of this Brain, by you or an agent. Only recent ones are kept.
      </p>
      {traces.isPending ? (
        <Loading what="traces" />
      ) : traces.data === undefined || errorHidesData(traces) ? (
        <ErrorNotice error={traces.error} />
      ) : rows.length === 0 ? (
        <Empty title="No traces kept">
          None has been asked since Mnemo started, or those there were went with a Record that was forgotten
          (a trace names what it found). Use <Link to={paths.brain(brainId, 'ask')}>Ask</Link> to try one.
        </Empty>
      ) : (
        <>
          <TableScroll label="Recent questions">
            <table className="table" aria-label="Recent questions" aria-rowcount={rows.length + 1}>
              <thead>
                <tr>
                  <th scope="col">Question</th>
                  <th scope="col">When</th>
                  <th scope="col">Mode</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Cited</th>
                  <th scope="col">Time</th>
                </tr>
              </thead>
              <tbody ref={body}>
                {shown.map((slot) => {
                  if ('gap' in slot) return <RowSpacer key={slot.key} height={slot.gap} columns={6} />;
                  const t = rows[slot.row]!;
                  return (
                    // Counted from the header row, so a screen reader says where in the whole list a row is.
                    <tr key={t.id} data-index={slot.row} aria-rowindex={slot.row + 2}>
                      <td className="wrap-anywhere" dir="auto">
                        <Link to={paths.trace(brainId, t.id)}>{t.query}</Link>
                      </td>
                      <td>{formatDateTime(t.created_at)}</td>
                      <td>{t.mode}</td>
                      <td>
                        {t.status === 'failed' ? (
                          <span className="badge warn">Failed: {t.error_code}</span>
                        ) : t.abstained ? (
                          <span className="badge muted">No answer ({t.abstained.replace(/_/g, ' ')})</span>
                        ) : (
                          <span className="badge ok">{outcomeLabel(t.status)}</span>
                        )}
                      </td>
                      <td>{t.citations}</td>
                      <td>{t.total_ms.toFixed(1)} ms</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableScroll>
          <ShowMore list={traces} label="Show older questions" />
        </>
      )}
    </>
  );
}
