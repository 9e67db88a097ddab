import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useSelfName } from '../api/self-name.ts';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CorrectionOutcome,
  MnemoRecord,
  TypedContent,
  Visibility,
} from '../../engine/contract/index.ts';
import type { RecordListParams } from '../../server/client/index.ts';
import { useClient } from '../api/client.ts';
import { useRememberRecord } from '../api/mutations.ts';
import { usePendingRows } from '../api/pending-rows.ts';
import { useCorrectedMemory } from '../api/corrected-memory.ts';
import { brainOptions, memoryOptions, recordListOptions } from '../api/queries.ts';
import { readSearch, writeSearch } from '../address-search.ts';
import { useFollowSearch } from '../use-follow-search.ts';
import { ClampedText } from '../components/clamped-text.tsx';
import { ShowMore } from '../components/show-more.tsx';
import { Empty, ErrorNotice, Loading, errorHidesData } from '../components/status.tsx';
import { formatAllDay, recordDays } from '../all-day.ts';
import {
  formatDateTime,
  isoToLocalInput,
  localInputToIso,
  localInputToOffsetIso,
  oneLine,
} from '../format.ts';
import { keepNoteDraft, readNoteDraft } from '../note-draft.ts';
import { kindLabels, recordSummary, statementLabel, visibilityLabels } from '../record-text.ts';
import { Link, navigate, useLocation } from '../router.tsx';
import { paths } from '../routes.ts';
import { ForgetRecordDialog } from './forget-record-dialog.tsx';
import { useWindowRows } from '../use-window-rows.ts';
import { SourceSelect, noSource } from './record-source-select.tsx';

const kinds = Object.keys(kindLabels) as Array<keyof typeof kindLabels>;

const filterNames = ['q', 'kind', 'source', 'has_source', 'visibility', 'status', 'since', 'until'] as const;
const statusChoices = { processing: 'Processing', ready: 'Ready' };
/** The filters as the form labels them, for the server's messages. */
const filterLabels = {
  q: 'Search',
  kind: { label: 'Kind', choices: kindLabels },
  source: 'Source',
  has_source: 'Source',
  visibility: { label: 'Visibility', choices: visibilityLabels },
  status: { label: 'Status', choices: statusChoices },
  since: 'Happened from',
  until: 'Happened until',
};

/** The Source menu's choice for the filters in the address: a name, Records with none, or any. */
const sourceChoice = (f: RecordListParams) => (f.has_source === 'false' ? noSource : (f.source ?? ''));

export function RecordsScreen({ brainId }: { brainId: string }) {
  const client = useClient();
  const selfName = useSelfName(brainId);
  const search = useLocation().split('?')[1] ?? '';
  const filters = readSearch(search, filterNames) as RecordListParams;
  const setFilters = (f: RecordListParams) =>
    navigate(`${paths.brain(brainId, 'records')}${writeSearch(f, filterNames)}`);
  const listOptions = recordListOptions(client, brainId, filters, useQueryClient());
  const records = useInfiniteQuery(listOptions);
  usePendingRows(
    listOptions.queryKey,
    records.data,
    (cursor) => client.listRecords(brainId, { ...filters, ...(cursor ? { cursor } : {}) }),
    1000,
  );
  const [forgetting, setForgetting] = useState<MnemoRecord | null>(null);
  // What the last forget did, said where the person looks after the row has gone.
  const [forgotten, setForgotten] = useState<string | null>(null);
  const rows = records.data?.pages.flatMap((p) => p.data) ?? [];
  // Read back to the first, a Brain's Records are thousands of cards: only those near the window are
  // drawn (3,000 were 39,000 DOM nodes, laid out again on every change).
  const body = useRef<HTMLUListElement>(null);
  const shown = useWindowRows(rows.length, body);
  return (
    <>
      <h1 tabIndex={-1}>Records</h1>
      <p className="lead">
        Everything that was written into this Brain, the most recently written first (an import writes old
        messages today). Records never change; they can only be forgotten.
      </p>
      <div role="status">{forgotten ? <p className="notice">{forgotten}</p> : null}</div>
      {/* Above the list, where it is found: below it, a Brain of many Records put it screens away. */}
      <AddNote brainId={brainId} />
      <RecordFilters brainId={brainId} search={search} initial={filters} onChange={setFilters} />
      {records.isPending ? (
        <Loading what="Records" />
      ) : records.data === undefined || errorHidesData(records) ? (
        <ErrorNotice error={records.error} fields={filterLabels} />
      ) : rows.length === 0 ? (
        <Empty title={Object.keys(filters).length ? 'No Records match these filters' : 'Nothing written yet'}>
          {Object.keys(filters).length ? (
            <>
              Try fewer filters, or{' '}
              <Link
                to={paths.brain(brainId, 'records')}
                // The link goes with the empty list it is in: focus goes to the page's heading.
                onClick={() => setTimeout(() => document.querySelector<HTMLElement>('main h1')?.focus(), 0)}
              >
                clear them
              </Link>
              .
            </>
          ) : (
            'Add a note above, or write Records through the API.'
          )}
        </Empty>
      ) : (
        <ul className="list" aria-label="Records" ref={body}>
          {shown.map((slot) => {
            if ('gap' in slot) return <ListSpacer key={slot.key} height={slot.gap} />;
            const r = rows[slot.row]!;
            return (
              // Its place in the whole list, for a screen reader, when not every item is drawn.
              <li
                key={r.id}
                className="list-item"
                data-index={slot.row}
                aria-setsize={rows.length}
                aria-posinset={slot.row + 1}
              >
                <div className="item-main">
                  <p className="record-line" dir="auto">
                    {r.content.kind === 'correction' ? (
                      <CorrectionLine brainId={brainId} content={r.content} outcome={r.correction_outcome} />
                    ) : (
                      <ClampedText text={recordSummary(r.content, selfName)} />
                    )}
                  </p>
                  <p className="meta">
                    <span className="badge">{kindLabels[r.kind]}</span>
                    {r.status === 'processing' ? (
                      <span className="badge warn">Processing</span>
                    ) : (
                      <span className="badge ok">Ready</span>
                    )}
                    {/* The list's order is when each was written; when it happened is said beside it. */}
                    <span>written {formatDateTime(r.created_at)}</span>
                    <Happened record={r} />
                    {r.source.name ? <span>from {r.source.name}</span> : null}
                    <span>{visibilityLabels[r.visibility]}</span>
                    <MemoryLinks brainId={brainId} ids={r.memory_ids} />
                    <Link to={paths.record(brainId, r.id)} className="mono muted" title="Open the Record">
                      {r.id}
                    </Link>
                  </p>
                </div>
                <div className="item-actions">
                  {r.erasable ? (
                    <button
                      type="button"
                      className="danger subtle"
                      // Named by the Record's words, which a person knows it by, not by its id; a label,
                      // not hidden text, so the row's words are not said (or found) twice.
                      aria-label={`Forget “${oneLine(recordSummary(r.content, selfName), 60)}”`}
                      onClick={() => {
                        setForgotten(null);
                        setForgetting(r);
                      }}
                    >
                      Forget
                    </button>
                  ) : (
                    <span className="muted small">
                      Imported:{' '}
                      <Link to={paths.brain(brainId, 'import')}>
                        remove the whole import<span className="visually-hidden"> of {r.source.name}</span>
                      </Link>
                    </span>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <ShowMore list={records} label="Show older Records" />
      {forgetting ? (
        <ForgetRecordDialog
          brainId={brainId}
          record={forgetting}
          onClose={() => setForgetting(null)}
          onForgotten={(said) => {
            setForgetting(null);
            setForgotten(said);
          }}
        />
      ) : null}
    </>
  );
}

/** Stands in for the items not drawn: their height, nothing to read. */
function ListSpacer({ height }: { height: number }) {
  return <li aria-hidden="true" data-spacer="true" style={{ height }} />;
}

function RecordFilters({
  brainId,
  search,
  initial,
  onChange,
}: {
  brainId: string;
  search: string;
  initial: RecordListParams;
  onChange: (f: RecordListParams) => void;
}) {
  const [q, setQ] = useState(initial.q ?? '');
  const [kind, setKind] = useState<string>(initial.kind ?? '');
  const [source, setSource] = useState(sourceChoice(initial));
  const [visibility, setVisibility] = useState<string>(initial.visibility ?? '');
  const [status, setStatus] = useState<string>(initial.status ?? '');
  const [since, setSince] = useState(isoToLocalInput(initial.since));
  const [until, setUntil] = useState(isoToLocalInput(initial.until));
  // A range that ends before it starts matches nothing: said here, not sent for the server to refuse.
  const [backwards, setBackwards] = useState(false);
  useFollowSearch(search, () => {
    setQ(initial.q ?? '');
    setKind(initial.kind ?? '');
    setSource(sourceChoice(initial));
    setVisibility(initial.visibility ?? '');
    setStatus(initial.status ?? '');
    setSince(isoToLocalInput(initial.since));
    setUntil(isoToLocalInput(initial.until));
  });
  // Either end changed, the range is read again when applied; both ends are what the message names.
  const rangeEdited = (set: (v: string) => void) => (e: ChangeEvent<HTMLInputElement>) => {
    set(e.target.value);
    setBackwards(false);
  };
  const rangeInvalid = backwards ? { 'aria-invalid': true, 'aria-describedby': 'range-backwards' } : {};
  const apply = (e: FormEvent) => {
    e.preventDefault();
    const f: RecordListParams = {};
    if (q.trim()) f.q = q.trim();
    if (kind) f.kind = kind as RecordListParams['kind'];
    if (source === noSource) f.has_source = 'false';
    else if (source.trim()) f.source = source.trim();
    if (visibility) f.visibility = visibility as Visibility;
    if (status) f.status = status as 'processing' | 'ready';
    const s = localInputToIso(since);
    const u = localInputToIso(until);
    const reversed = Boolean(s && u && Date.parse(s) > Date.parse(u));
    setBackwards(reversed);
    if (reversed) return;
    if (s) f.since = s;
    if (u) f.until = u;
    onChange(f);
  };
  return (
    <form className="filters" onSubmit={apply} aria-label="Filter Records">
      <label className="grow">
        Search{' '}
        <span className="hint">
          every word, in any order, in the text, who said it or its title; case and accents do not matter
        </span>
        <input
          type="search"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          placeholder="e.g. sister nurse"
          maxLength={500}
        />
      </label>
      <label>
        Kind
        <select value={kind} onChange={(e) => setKind(e.target.value)}>
          <option value="">Any</option>
          {kinds.map((k) => (
            <option key={k} value={k}>
              {kindLabels[k]}
            </option>
          ))}
        </select>
      </label>
      <SourceSelect brainId={brainId} value={source} onChange={setSource} />
      <label>
        Visibility
        <select value={visibility} onChange={(e) => setVisibility(e.target.value)}>
          <option value="">Any</option>
          {Object.entries(visibilityLabels).map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <label>
        Status
        <select value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="">Any</option>
          {Object.entries(statusChoices).map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <label>
        Happened from
        <input type="datetime-local" value={since} onChange={rangeEdited(setSince)} {...rangeInvalid} />
      </label>
      <label>
        Happened until
        <input type="datetime-local" value={until} onChange={rangeEdited(setUntil)} {...rangeInvalid} />
      </label>
      {backwards ? (
        <p className="field-error" id="range-backwards" role="alert">
          “Happened until” is before “Happened from”: change one of them.
        </p>
      ) : null}
      <button type="submit">Apply filters</button>
    </form>
  );
}

type NoteKind = 'yours' | 'message' | 'document';

function AddNote({ brainId }: { brainId: string }) {
  const remember = useRememberRecord(brainId);
  const [text, setTextNow] = useState(() => readNoteDraft(brainId));
  const [restored] = useState(() => text.trim() !== '');
  const setText = (t: string) => {
    setTextNow(t);
    keepNoteDraft(brainId, t);
  };
  // A note the person types is in their own words: with a Brain that knows its person, it is sent as what
  // that person said (speaker "self", as an import stores their own messages), so its Memories are theirs.
  const hasSelf = Boolean(useQuery(brainOptions(useClient(), brainId)).data?.self);
  const [kindChosen, setKind] = useState<NoteKind | null>(null);
  const kind: NoteKind = kindChosen ?? (hasSelf ? 'yours' : 'document');
  // A message is someone's: without who said it, its Memories would be nobody's ("unknown speaker").
  const [speaker, setSpeaker] = useState('');
  // When it happened, where that is not now: "I moved to Valencia in 2018" typed today was dated today,
  // and replaced what an import had dated since.
  const [happened, setHappened] = useState('');
  const [saved, setSaved] = useState<MnemoRecord | null>(null);
  // Pressed with nothing but spaces: said, not silently ignored.
  const [blank, setBlank] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (remember.isPending) return;
    setBlank(!text.trim());
    if (!text.trim() || (kind === 'message' && !speaker.trim())) return;
    setSaved(null);
    const content =
      kind === 'yours'
        ? { kind: 'message' as const, text: text.trim(), speaker: 'self' }
        : kind === 'message'
          ? { kind, text: text.trim(), speaker: speaker.trim() }
          : { kind, text: text.trim() };
    const occurredAt = localInputToOffsetIso(happened);
    remember.mutate(
      { content, source: { name: 'Mnemo app' }, ...(occurredAt ? { occurred_at: occurredAt } : {}) },
      {
        onSuccess: (r) => {
          setText('');
          setHappened('');
          setSaved(r.record);
        },
      },
    );
  };
  return (
    <section className="card" aria-labelledby="add-note">
      <h2 id="add-note">Add a note</h2>
      <form className="form" onSubmit={submit}>
        <label>
          What should this Brain remember?
          <textarea
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              if (saved) setSaved(null);
              if (blank) setBlank(false);
            }}
            rows={3}
            required
            maxLength={1_000_000}
            aria-invalid={blank || undefined}
            aria-describedby={blank ? 'note-blank' : undefined}
          />
        </label>
        <label>
          Kind
          <select value={kind} onChange={(e) => setKind(e.target.value as NoteKind)}>
            {hasSelf ? <option value="yours">Your own words (counted as yours)</option> : null}
            <option value="document">Note</option>
            <option value="message">Message</option>
          </select>
        </label>
        {kind === 'message' ? (
          <label>
            Who said it?
            <input
              value={speaker}
              onChange={(e) => setSpeaker(e.target.value)}
              required
              maxLength={200}
              autoComplete="off"
              placeholder="Pedro"
            />
          </label>
        ) : null}
        <label>
          When did it happen? <span className="muted">(optional; now if left empty)</span>
          <input type="datetime-local" value={happened} onChange={(e) => setHappened(e.target.value)} />
        </label>
        {restored && text.trim() && !saved ? (
          <p className="hint">Your note from before is still here, not saved yet.</p>
        ) : null}
        {blank ? (
          <p className="field-error" id="note-blank" role="alert">
            Write something first: a note of only spaces is not kept.
          </p>
        ) : null}
        {remember.isError ? (
          <ErrorNotice
            error={remember.error}
            fields={{
              'content.text': 'What should this Brain remember?',
              occurred_at: 'When did it happen?',
            }}
          />
        ) : null}
        <div role="status">
          {saved ? (
            <p className="hint">
              Note saved: it is at the top of the list below, which shows when its Memories are ready.
            </p>
          ) : null}
        </div>
        {/* aria-disabled, not disabled: a disabled button would drop keyboard focus to <body>. */}
        <button type="submit" className="primary" aria-disabled={remember.isPending || undefined}>
          {remember.isPending ? 'Saving…' : 'Remember this'}
        </button>
      </form>
    </section>
  );
}

/** When a Record happened, said when that is not when it was written; an all-day event's by its day. */
function Happened({ record: r }: { record: MnemoRecord }) {
  const at = happenedAt(r);
  return at === null ? null : <span>happened {at}</span>;
}

/** When a Record happened, or null when that is when it was written. */
export function happenedAt(r: MnemoRecord): string | null {
  const days = recordDays(r);
  if (days) return formatAllDay(days);
  const at = formatDateTime(r.occurred_at);
  return at !== formatDateTime(r.created_at) ? at : null;
}

/** How a correction from another side was applied here, as a person reads it. */
const outcomeLabels: Record<CorrectionOutcome['state'], string> = {
  applied: 'Applied here',
  applied_by_fallback: 'Applied here by a fallback',
  not_applied: 'Not applied here',
};

/**
 * A correction, with the Memory it corrects linked and its reason shown. One that came from another side
 * names a Memory of that side: the link goes to the Memory it changed here, and what it did here is said.
 */
export function CorrectionLine({
  brainId,
  content,
  outcome,
}: {
  brainId: string;
  content: Extract<TypedContent, { kind: 'correction' }>;
  outcome: CorrectionOutcome | undefined;
}) {
  const here = outcome ? outcome.memory_id : content.corrects;
  // Named by what it says, as the Forget dialog names it: "Withdrew a Memory" row after row left a
  // person opening each to find the one to undo. One from another side links the Memory it made here,
  // whose words are its own statement: "a Memory" there, and the line says what it did.
  const named = useCorrectedMemory(brainId, outcome ? null : content.corrects);
  const words = named === null ? 'a Memory' : `“${named}”`;
  const target = here ? <Link to={paths.memory(brainId, here)}>{words}</Link> : <>a Memory</>;
  return (
    <>
      {content.statement !== undefined ? (
        <>
          Corrected {target} to: {content.statement}
        </>
      ) : (
        <>Withdrew {target}</>
      )}
      {content.reason ? <span className="muted"> — why: {content.reason}</span> : null}
      {outcome ? (
        <span data-testid="correction-outcome">
          {' '}
          <span className={`badge ${outcome.state === 'not_applied' ? 'warn' : 'ok'}`}>
            {outcomeLabels[outcome.state]}
          </span>{' '}
          <span className="muted">from another side: {outcome.reason}.</span>
        </span>
      ) : null}
    </>
  );
}

/**
 * The Memories a Record supports, each a link. `read`: each Memory is read for its link's words (a
 * Record's own page); else only what is cached names them (a list of Records, where reading every
 * row's Memories was a request per Memory, again on each return to the window).
 */
export function MemoryLinks({
  brainId,
  ids,
  read = false,
}: {
  brainId: string;
  ids: string[];
  read?: boolean;
}) {
  if (ids.length === 0) return <span>no Memories</span>;
  if (ids.length === 1)
    return (
      <span>
        <Link to={paths.memory(brainId, ids[0]!)}>1 Memory</Link>
      </span>
    );
  return (
    <span>
      {ids.length} Memories:{' '}
      {ids.map((id, i) => (
        <span key={id}>
          {i > 0 ? ', ' : ''}
          <MemoryLink brainId={brainId} id={id} n={i + 1} of={ids.length} read={read} />
        </span>
      ))}
    </span>
  );
}

/**
 * One of a Record's Memories, shown as its number and named by what it says ("2 of 4: Ana lives in
 * Porto"): "1 of 4", "2 of 4" told a screen reader little. Its words are the Memory's as its page reads
 * it (read here with `read`, else as cached); until then, or when it is gone, the number alone.
 */
function MemoryLink({
  brainId,
  id,
  n,
  of,
  read,
}: {
  brainId: string;
  id: string;
  n: number;
  of: number;
  read: boolean;
}) {
  const memory = useQuery({ ...memoryOptions(useClient(), brainId, id), retry: false, enabled: read });
  const said = memory.data ? oneLine(statementLabel(memory.data), 80) : null;
  // A label, not hidden text: the Memory's words are often the row's own, which would be said (and
  // found) twice. It begins with the number shown, as a spoken command would say it.
  const name = `${n} of ${of}${said ? `: ${said}` : ''}`;
  return (
    <Link to={paths.memory(brainId, id)} aria-label={name} {...(said ? { title: said } : {})}>
      {n}
    </Link>
  );
}
