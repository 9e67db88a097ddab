import { useInfiniteQuery } from '@tanstack/react-query';
import { useClient } from '../api/client.ts';
import { objectListOptions } from '../api/queries.ts';
import { ClampedText } from '../components/clamped-text.tsx';
import { ShowMore } from '../components/show-more.tsx';
import { Empty, ErrorNotice, Loading, errorHidesData } from '../components/status.tsx';
import { formatDateTime } from '../format.ts';
import { Link } from '../router.tsx';
import { paths } from '../routes.ts';
import { TableScroll } from '../components/table-scroll.tsx';
import { importedFileRecord } from '../imported-file-record.ts';

/** What the person's applications took as true: each Object's current version. */
export function ObjectsScreen({ brainId }: { brainId: string }) {
  const client = useClient();
  const objects = useInfiniteQuery(objectListOptions(client, brainId));
  const rows = objects.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <>
      <h1 tabIndex={-1}>Objects</h1>
      <p className="lead">
        Values your applications accepted as true, each at its latest version. They are the applications’ own
        record: Mnemo keeps every version and never changes one by itself.
      </p>
      {objects.isPending ? (
        <Loading what="Objects" />
      ) : objects.data === undefined || errorHidesData(objects) ? (
        <ErrorNotice error={objects.error} />
      ) : rows.length === 0 ? (
        <Empty title="No Objects accepted yet">
          An application accepts one through the API, or you can from a current Memory’s page (
          <Link to={paths.brain(brainId, 'memories')}>Memories</Link>).
        </Empty>
      ) : (
        <>
          <TableScroll label="Objects">
            <table className="table" aria-label="Objects">
              <thead>
                <tr>
                  <th scope="col">Type</th>
                  <th scope="col">Key</th>
                  <th scope="col">Value</th>
                  <th scope="col">Version</th>
                  <th scope="col">Accepted</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((o) => {
                  const held = importedFileRecord(o);
                  return (
                    <tr key={`${o.type}/${o.key}`}>
                      <td className="wrap-anywhere">
                        {o.type}
                        {held === null ? null : (
                          <span className="muted small"> (Mnemo’s own, for imports)</span>
                        )}
                      </td>
                      <td className="wrap-anywhere">{o.key}</td>
                      {held === null ? (
                        <td className="wrap-anywhere mono small" dir="auto">
                          <ClampedText text={JSON.stringify(o.value)} limit={300} />
                        </td>
                      ) : (
                        <td className="wrap-anywhere small" dir="auto">
                          {held}
                        </td>
                      )}
                      <td>{o.version}</td>
                      <td>{formatDateTime(o.accepted_at)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableScroll>
          <ShowMore list={objects} label="Show more" />
        </>
      )}
    </>
  );
}
