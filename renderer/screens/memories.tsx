import { Fragment, useId, useRef, useState, type FormEvent } from 'react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import type { MemoryListParams } from '../../server/client/index.ts';
import { useClient } from '../api/client.ts';
import { useSelfName } from '../api/self-name.ts';
import { ownerParam, subjectParam } from '../owner-filter.ts';
import { memoryListOptions } from '../api/queries.ts';
import { readSearch, writeSearch } from '../address-search.ts';
import { useFollowSearch } from '../use-follow-search.ts';
import { ShowMore } from '../components/show-more.tsx';
import { Empty, ErrorNotice, Loading, errorHidesData } from '../components/status.tsx';
import { memoryDays } from '../all-day.ts';
import { aboutLabel, statementLabel } from '../record-text.ts';
import { oneLine, ownerLabel, statusLabels } from '../format.ts';
import { truthCell, truthCellDates } from '../replaced-at-start.ts';
import { Link, navigate, useLocation } from '../router.tsx';
import { paths } from '../routes.ts';
import { TableScroll } from '../components/table-scroll.tsx';
import { useWindowRows } from '../use-window-rows.ts';
import { RowSpacer } from '../components/row-spacer.tsx';

const searchNames = ['q', 'status', 'subject', 'owner', 'order'] as const;
/** Characters of a statement shown in the table: a few lines of its column, as a Record's 600 are of a list. */
const statementChars = 300;
/**
 * Newest first unless asked: what was just learned (an agent's writes, a correction) is the first
 * thing to check, and it sat behind "Show more" when the list opened on an import's oldest rows.
 */
const searchDefaults = { status: 'active', order: 'desc' } as const;
const statusChoices: Record<NonNullable<MemoryListParams['status']>, string> = {
  active: 'Current only',
  all: 'All versions',
  scheduled: 'Starting later',
  superseded: 'Replaced',
  retracted: 'Withdrawn',
};
const orderChoices: Record<NonNullable<MemoryListParams['order']>, string> = {
  desc: 'Newest first',
  asc: 'Oldest first',
};
/** The search fields as the form labels them, for the server's messages. */
const searchLabels = {
  q: 'Search',
  status: { label: 'Show', choices: statusChoices },
  subject: 'About',
  owner: 'Whose',
  order: { label: 'Order', choices: orderChoices },
};

export function MemoriesScreen({ brainId }: { brainId: string }) {
  const client = useClient();
  const search = useLocation().split('?')[1] ?? '';
  const selfName = useSelfName(brainId);
  const read = { ...searchDefaults, ...readSearch(search, searchNames) } as MemoryListParams;
  // The address takes the filter's words too (`?owner=you`, `?owner=Lucía (you)`), as the form does;
  // About keeps them ("you" is her name once it is known).
  const params = {
    ...read,
    ...(read.owner ? { owner: ownerParam(read.owner, selfName) } : {}),
    ...(read.subject ? { subject: subjectParam(read.subject, selfName) } : {}),
  };
  const setParams = (p: MemoryListParams) =>
    navigate(`${paths.brain(brainId, 'memories')}${writeSearch(p, searchNames, searchDefaults)}`);
  const memories = useInfiniteQuery(memoryListOptions(client, brainId, params, useQueryClient()));
  // New Records turn into Memories in the background: the Brain's navigation follows its changes
  // (useFollowBrain) and applies them to this list.
  const rows = memories.data?.pages.flatMap((p) => p.data) ?? [];
  // Read to its end, a large Brain's list is thousands of rows: only those near the window are drawn.
  const body = useRef<HTMLTableSectionElement>(null);
  const shown = useWindowRows(rows.length, body);
  return (
    <>
      <h1 tabIndex={-1}>Memories</h1>
      <p className="lead">
        What this Brain has worked out from its Records. Each one cites the words it came from.
      </p>
      <MemorySearch search={search} initial={params} selfName={selfName} onChange={setParams} />
      {memories.isPending ? (
        <Loading what="Memories" />
      ) : memories.data === undefined || errorHidesData(memories) ? (
        <ErrorNotice error={memories.error} fields={searchLabels} />
      ) : rows.length === 0 ? (
        <NoMemories brainId={brainId} params={params} />
      ) : (
        <TableScroll label="Memories">
          <table className="table memories-table" aria-label="Memories" aria-rowcount={rows.length + 1}>
            <thead>
              <tr>
                <th scope="col">Statement</th>
                <th scope="col">Whose</th>
                <th scope="col">About</th>
                <th scope="col">True</th>
                <th scope="col">Version</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody ref={body}>
              {shown.map((slot) => {
                if ('gap' in slot) return <RowSpacer key={slot.key} height={slot.gap} columns={6} />;
                const m = rows[slot.row]!;
                return (
                  // Counted from the header row, so a screen reader says where in the whole list a row is.
                  <tr key={m.id} data-index={slot.row} aria-rowindex={slot.row + 2}>
                    <td className="wrap-anywhere" dir="auto">
                      {/* A whole document can be one statement: its start here, all of it on its page. */}
                      <Link to={paths.memory(brainId, m.id)}>
                        {oneLine(statementLabel(m), statementChars)}
                      </Link>
                    </td>
                    <td className="wrap-anywhere">{ownerLabel(m.owner)}</td>
                    <td className="wrap-anywhere">{aboutLabel(m)}</td>
                    <td>
                      <TruthCell m={m} />
                    </td>
                    <td>{m.version}</td>
                    <td>
                      <span className={`badge ${m.status === 'active' ? 'ok' : 'muted'}`}>
                        {statusLabels[m.status]}
                      </span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
      <ShowMore list={memories} label="Show more" />
    </>
  );
}

const statusWords: Record<NonNullable<MemoryListParams['status']>, string> = {
  active: 'current',
  all: 'of any version',
  scheduled: 'starting later',
  superseded: 'replaced',
  retracted: 'withdrawn',
};

/** Nothing to list: because of the filters (said, with the way to clear them), or because there is none. */
function NoMemories({ brainId, params }: { brainId: string; params: MemoryListParams }) {
  const status = params.status ?? 'active';
  const filters = [
    params.q ? `matching “${params.q}”` : null,
    status !== 'active' ? statusWords[status] : null,
    params.subject ? `about “${params.subject}”` : null,
    params.owner ? `whose: “${shownOwner(params.owner)}”` : null,
  ].filter((f): f is string => f !== null);
  if (filters.length === 0)
    return (
      <Empty title="No Memories yet">
        Memories appear here once Records are written and processed. To begin,{' '}
        <Link to={paths.brain(brainId, 'import')}>import</Link> notes, mail, chats or a calendar, or{' '}
        <Link to={paths.brain(brainId, 'records')}>add a note</Link> on Records.
      </Empty>
    );
  return (
    <Empty title="No Memories match these filters">
      <p>No Memories {filters.join(', ')}.</p>
      <p>
        <Link
          to={paths.brain(brainId, 'memories')}
          // The link goes with the empty list it is in: focus goes to the page's heading.
          onClick={() => setTimeout(() => document.querySelector<HTMLElement>('main h1')?.focus(), 0)}
        >
          Clear the filters
        </Link>{' '}
        to see every current Memory.
      </p>
    </Empty>
  );
}

/**
 * The owner filter in the words the list names owners with (ownerLabel: "you", "not sure whose"), where
 * the API says `self` and `unresolved`.
 */
const ownerWords = { self: ownerLabel({ state: 'self' }), unresolved: ownerLabel({ state: 'unresolved' }) };
const shownOwner = (owner: string) =>
  owner === 'self' || owner === 'unresolved' ? ownerWords[owner] : owner;

function MemorySearch({
  search,
  initial,
  selfName,
  onChange,
}: {
  search: string;
  initial: MemoryListParams;
  selfName: string | undefined;
  onChange: (p: MemoryListParams) => void;
}) {
  const ids = useId();
  const [q, setQ] = useState(initial.q ?? '');
  const [status, setStatus] = useState<NonNullable<MemoryListParams['status']>>(initial.status ?? 'active');
  const [subject, setSubject] = useState(initial.subject ?? '');
  const [owner, setOwner] = useState(shownOwner(initial.owner ?? ''));
  const [order, setOrder] = useState<NonNullable<MemoryListParams['order']>>(
    initial.order ?? searchDefaults.order,
  );
  useFollowSearch(search, () => {
    setQ(initial.q ?? '');
    setStatus(initial.status ?? 'active');
    setSubject(initial.subject ?? '');
    setOwner(shownOwner(initial.owner ?? ''));
    setOrder(initial.order ?? searchDefaults.order);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p: MemoryListParams = { status, order };
    if (q.trim()) p.q = q.trim();
    if (subject.trim()) p.subject = subject.trim();
    if (owner.trim()) p.owner = ownerParam(owner, selfName);
    onChange(p);
  };
  return (
    <form className="filters" role="search" onSubmit={submit} aria-label="Search Memories">
      {/* Named "Search" alone, the hint its description: within the name, "in any order" made the box
          one of two fields named "Order", and a screen reader read the whole hint as its name. */}
      <div className="grow field">
        <label htmlFor={`${ids}-q`}>Search</label>
        <span className="hint" id={`${ids}-q-hint`}>
          every word, in any order, in a statement or the names beside it; case and accents do not matter
        </span>
        <input
          id={`${ids}-q`}
          type="search"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          placeholder="e.g. sister nurse"
          maxLength={500}
          aria-describedby={`${ids}-q-hint`}
        />
      </div>
      <label>
        Show
        <select value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
          {Object.entries(statusChoices).map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <label>
        About
        <input
          value={subject}
          onChange={(e) => setSubject(e.target.value)}
          placeholder="a name, or a word of one"
        />
      </label>
      <label>
        Whose
        <input
          value={owner}
          onChange={(e) => setOwner(e.target.value)}
          placeholder="you, a name, or not sure whose"
        />
      </label>
      <label>
        Order
        <select value={order} onChange={(e) => setOrder(e.target.value as typeof order)}>
          {Object.entries(orderChoices).map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Search</button>
    </form>
  );
}

/** When a Memory held, each of its dates on one line (truthCellDates); a phrase wraps as text does. */
function TruthCell({ m }: { m: Parameters<typeof truthCell>[0] & { statement: string } }) {
  const inUtc = memoryDays(m) !== null;
  const dates = truthCellDates(m, inUtc);
  if (dates === null) return <>{truthCell(m, inUtc)}</>;
  return (
    <>
      {dates.map((d, i) => (
        <Fragment key={i}>
          {i > 0 ? ' – ' : null}
          {d.lead}
          <span className="nowrap">{d.date}</span>
        </Fragment>
      ))}
    </>
  );
}
