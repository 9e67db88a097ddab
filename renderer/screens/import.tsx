import {
  useCallback,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type DragEvent,
  type FormEvent,
} from 'react';
import type { ImportFormat, ImportResult, Visibility } from '../../engine/contract/index.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { importRunOptions, useImportFiles } from '../api/mutations.ts';
import { useClient } from '../api/client.ts';
import { brainOptions, keys } from '../api/queries.ts';
import {
  addChosen,
  fromDrop,
  fromInput,
  maxImportBytes,
  toImportFiles,
  type ChosenFile,
} from '../chosen-files.ts';
import { isImportable } from '../importable.ts';
import { readImportChoices, subscribeImportChoices, updateImportChoices } from '../import-choices.ts';
import { ErrorNotice } from '../components/status.tsx';
import { formatBytes, plural } from '../format.ts';
import { Link } from '../router.tsx';
import { paths } from '../routes.ts';
import { ImportedSources } from './import-sources.tsx';
import { importFormatText } from '../import-formats.ts';
import { ImportLeftoverNotice, ImportRunning, ImportStoppedNotice } from './import-progress.tsx';
import { useImportLeftover, type ImportLeftover } from '../api/use-import-leftover.ts';

/** The start of the day after a date input's day (YYYY-MM-DD), in this computer's zone. */
function dayAfter(day: string): Date {
  const d = new Date(`${day}T00:00`);
  d.setDate(d.getDate() + 1);
  return d;
}

/** The import's fields as the form labels them, for the server's messages. */
const importLabels = {
  format: 'What kind of export is it?',
  time_zone: 'Time zone',
  self_name: 'Your name in chats and mail',
  date_order: 'Dates in WhatsApp chats',
  visibility: 'Who may see them',
  recurrence_since: 'Repeating calendar events from',
  recurrence_until: 'Repeating calendar events to',
  files: 'Files',
};

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return '';
  }
}

export function ImportScreen({ brainId }: { brainId: string }) {
  const { leftover, dismiss } = useImportLeftover(brainId);
  return (
    <>
      <h1 tabIndex={-1}>Import</h1>
      <p className="lead">
        Bring in what you already have: notes, chats, mail, calendars and contacts, from the files their apps
        export. Importing the same files again adds nothing new, and a note you edited replaces its old
        version, also when you choose a folder above it or import it with <code>mnemo import</code>. Notes are
        recognised by their folder and file names only: a note renamed or moved is added as a new one, and a
        note of another folder with the same names would replace it, so the result lists the notes matched
        this way.
      </p>
      <ImportForm brainId={brainId} leftover={leftover} onDismiss={dismiss} />
      <ImportedSources brainId={brainId} partial={leftover !== null && leftover.state !== 'elsewhere'} />
    </>
  );
}

function ImportForm({
  brainId,
  leftover,
  onDismiss,
}: {
  brainId: string;
  leftover: ImportLeftover | null;
  onDismiss: () => void;
}) {
  const qc = useQueryClient();
  const importFiles = useImportFiles(brainId);
  // The latest import of this Brain, started here or before the person looked at another tab.
  const run = useQuery(importRunOptions(qc, brainId)).data ?? null;
  const running = run?.status === 'pending';
  // The form's choices outlive the screen: a look at another tab while choosing loses none of them.
  const choices = useSyncExternalStore(subscribeImportChoices, () => readImportChoices(brainId));
  const update = (change: Parameters<typeof updateImportChoices>[1]) => updateImportChoices(brainId, change);
  const { picked, format, timeZone, dateOrder, visibility, eventsFrom, eventsTo } = choices;
  // Every file chosen or dropped since the list was last cleared; those worth sending are `chosen`.
  const chosen = picked.filter((f) => isImportable(f.path));
  const leftOut = picked.length - chosen.length;
  // The two boxes, emptied with the list so that neither says "3 files" of a list that holds none.
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  // Left untouched, the Brain's own person: Ana's own mail was otherwise someone else's ("Ana Silva <…>").
  const brain = useQuery(brainOptions(useClient(), brainId)).data;
  const self = brain?.self?.name ?? '';
  const selfName = choices.selfName ?? self;
  const [readError, setReadError] = useState<unknown>(null);
  // Import pressed with nothing chosen: said, not silently ignored.
  const [nothingChosen, setNothingChosen] = useState(false);
  const size = chosen.reduce((n, f) => n + f.file.size, 0);
  const tooBig = size > maxImportBytes;

  const choose = (files: ChosenFile[]) => {
    // Added to what is chosen: a folder and then a file are both sent, as the list says.
    update((before) => ({ picked: addChosen(before.picked, files) }));
    setNothingChosen(false);
    setReadError(null);
    // New files: the last import's summary (not a running one) gives way.
    if (!running) qc.setQueryData(keys.importRun(brainId), null);
  };
  const emptyBoxes = () => {
    for (const input of [filesInput.current, folderInput.current]) if (input) input.value = '';
  };
  const emptied = useCallback(() => filesInput.current, []);
  const clear = () => {
    update({ picked: [] });
    emptyBoxes();
  };
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    fromDrop(e.dataTransfer).then(choose, setReadError);
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setNothingChosen(chosen.length === 0);
    if (running || chosen.length === 0 || tooBig) return;
    setReadError(null);
    let files;
    try {
      files = await toImportFiles(chosen);
    } catch (err) {
      setReadError(err);
      return;
    }
    const sent = new Set(picked);
    importFiles
      .mutateAsync({
        files,
        format,
        ...(timeZone.trim() ? { time_zone: timeZone.trim() } : {}),
        ...(selfName.trim() ? { self_name: selfName.trim() } : {}),
        ...(dateOrder ? { date_order: dateOrder } : {}),
        ...(visibility !== 'shareable' ? { visibility } : {}),
        // Days as chosen here, in this computer's zone: from the first one's start to the last one's end
        // (the window's end is exclusive, so the To day is in it, and From and To may be one day).
        ...(eventsFrom ? { recurrence_since: new Date(`${eventsFrom}T00:00`).toISOString() } : {}),
        ...(eventsTo ? { recurrence_until: dayAfter(eventsTo).toISOString() } : {}),
      })
      .then(
        () => {
          // Sent: the next choice starts a new list (a folder chosen again is not added to the last one),
          // also when the import ended while another tab was on screen; files chosen meanwhile stay.
          update((c) => ({ picked: c.picked.filter((f) => !sent.has(f)) }));
          emptyBoxes();
        },
        // A failure or a cancel is said from the import's state (importRunOptions).
        () => {},
      );
  };

  return (
    <section className="card" aria-labelledby="import-choose">
      <h2 id="import-choose">Choose what to import</h2>
      <form className="form" onSubmit={(e) => void submit(e)}>
        <div
          className={`dropzone${dragging ? ' dragging' : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={drop}
        >
          <p className="strong">Drop files or folders here (an export&apos;s .zip too), or choose them:</p>
          <div className="row">
            <label>
              Files
              <input
                ref={filesInput}
                type="file"
                multiple
                onChange={(e) => choose(fromInput(e.target.files))}
              />
            </label>
            <label>
              A folder (a vault, a Slack export)
              <input
                type="file"
                ref={(el) => {
                  folderInput.current = el;
                  el?.setAttribute('webkitdirectory', '');
                }}
                onChange={(e) => choose(fromInput(e.target.files))}
              />
            </label>
          </div>
        </div>
        <ChosenList
          chosen={chosen}
          leftOut={leftOut}
          size={size}
          onRemove={(f) => {
            update((c) => ({ picked: c.picked.filter((p) => p.path !== f.path) }));
            // A box saying "3 files" of a list of 2 misleads, and a file chosen again fires no change.
            emptyBoxes();
            if (!running) qc.setQueryData(keys.importRun(brainId), null);
          }}
          emptied={emptied}
          onClear={() => {
            clear();
            setNothingChosen(false);
            setReadError(null);
            // As a new choice does: the last import's summary (not a running one) gives way.
            if (!running) qc.setQueryData(keys.importRun(brainId), null);
          }}
        />
        {tooBig ? (
          <p className="field-error" role="alert">
            These files are {formatBytes(size)} together; the app imports up to {formatBytes(maxImportBytes)}{' '}
            at once. Choose fewer files, or use <code>mnemo import</code> from a terminal for large exports.
          </p>
        ) : null}
        <label>
          What kind of export is it?
          <select
            value={format}
            onChange={(e) => update({ format: e.target.value as ImportFormat | 'auto' })}
          >
            <option value="auto">Tell from the files</option>
            {Object.entries(importFormatText).map(([f, { choice: label }]) => (
              <option key={f} value={f}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Time zone{' '}
          <span className="hint">
            WhatsApp and some calendars write times without one; empty: this computer&apos;s, or for a chat
            imported before, the one used then
          </span>
          <input
            value={timeZone}
            onChange={(e) => update({ timeZone: e.target.value })}
            maxLength={100}
            placeholder={browserTimeZone() || 'e.g. Europe/Lisbon'}
          />
        </label>
        <label>
          Your name in chats and mail{' '}
          <span className="hint">
            {brain && !brain.self
              ? 'this Brain was made without its own person, so your messages cannot be attributed to you here, and questions about "my …" go unanswered'
              : 'optional: your own messages are then known to be yours'}
          </span>
          <input value={selfName} onChange={(e) => update({ selfName: e.target.value })} maxLength={200} />
        </label>
        <label>
          Dates in WhatsApp chats{' '}
          <span className="hint">
            a short chat&apos;s 03/04 can be 3 April or 4 March; most chats show which by themselves
          </span>
          <select
            value={dateOrder}
            onChange={(e) => update({ dateOrder: e.target.value as '' | 'dmy' | 'mdy' })}
          >
            <option value="">Tell from the chat (day first when it cannot)</option>
            <option value="dmy">Day first (31/12/2024)</option>
            <option value="mdy">Month first (12/31/2024)</option>
          </select>
        </label>
        <label>
          Who may see them{' '}
          <span className="hint">
            Records imported before keep their own; a Brain paired with a hosted Mnemo sends what is shared
          </span>
          <select value={visibility} onChange={(e) => update({ visibility: e.target.value as Visibility })}>
            <option value="shareable">Shared with a paired hosted Mnemo</option>
            <option value="redacted_summary">
              Shared only redacted (addresses, numbers and names taken out)
            </option>
            <option value="local_only">This device only</option>
          </select>
        </label>
        <fieldset className="row">
          <legend>
            Repeating calendar events{' '}
            <span className="hint">
              imported from and to these days; empty: from two years ago to a year from now
            </span>
          </legend>
          <label>
            From
            <input type="date" value={eventsFrom} onChange={(e) => update({ eventsFrom: e.target.value })} />
          </label>
          <label>
            To
            <input type="date" value={eventsTo} onChange={(e) => update({ eventsTo: e.target.value })} />
          </label>
        </fieldset>
        {nothingChosen && !running ? (
          <p className="field-error" role="alert">
            Choose files or a folder to import first (or drop them on the box above).
          </p>
        ) : null}
        {readError ? <ErrorNotice error={readError} /> : null}
        {run?.status === 'error' ? <ErrorNotice error={run.error} fields={importLabels} /> : null}
        {/* aria-disabled, not disabled: a disabled button would drop keyboard focus to <body>. */}
        <button type="submit" className="primary" aria-disabled={tooBig || running || undefined}>
          {running ? 'Importing…' : chosen.length ? `Import ${plural(chosen.length, 'file')}` : 'Import'}
        </button>
        {running ? <ImportRunning run={run} /> : null}
        {run?.status === 'cancelled' ? <ImportStoppedNotice run={run} /> : null}
        {/* This page's own last import says how it went itself; this is one it no longer holds. */}
        {leftover && run === null ? <ImportLeftoverNotice leftover={leftover} onDismiss={onDismiss} /> : null}
      </form>
      {run?.status === 'success' && run.result ? (
        <ImportSummary brainId={brainId} result={run.result} />
      ) : null}
    </section>
  );
}

/** Files listed before "Show all": a folder of thousands would push the form far down. */
const firstShown = 8;

function ChosenList(props: {
  chosen: ChosenFile[];
  leftOut: number;
  size: number;
  onClear: () => void;
  onRemove: (file: ChosenFile) => void;
  /** Where focus goes when the last file listed was removed: what chooses files again. */
  emptied: () => HTMLElement | null;
}) {
  const { chosen, leftOut, size, onClear, onRemove, emptied } = props;
  const [all, setAll] = useState(false);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  // A removed file's button goes with it: focus moves to the next one (else the one before), not to <body>.
  const focusNext = useRef<{ path: string | null } | null>(null);
  useEffect(() => {
    const next = focusNext.current;
    if (next === null) return;
    focusNext.current = null;
    (next.path === null ? emptied() : buttons.current.get(next.path))?.focus();
  });
  const remove = (i: number) => {
    focusNext.current = { path: (chosen[i + 1] ?? chosen[i - 1])?.path ?? null };
    onRemove(chosen[i]!);
  };
  if (chosen.length === 0 && leftOut === 0) return <p className="muted">Nothing chosen yet.</p>;
  const shown = all ? chosen : chosen.slice(0, firstShown);
  return (
    <div aria-live="polite">
      <p>
        {chosen.length
          ? `${plural(chosen.length, 'file')} chosen (${formatBytes(size)})`
          : 'No file to import.'}{' '}
        <button type="button" onClick={onClear}>
          Clear
        </button>
      </p>
      <ul className="list compact small chosen-files" aria-label="Chosen files">
        {shown.map((f, i) => (
          <li key={f.path}>
            <span className="mono">{f.path}</span>
            <button
              type="button"
              className="link-button"
              // Named by its file (the visible word starts the name): a list of "Remove" says nothing.
              aria-label={`Remove ${f.path}`}
              ref={(el) => {
                if (el) buttons.current.set(f.path, el);
                else buttons.current.delete(f.path);
              }}
              onClick={() => remove(i)}
            >
              Remove
            </button>
          </li>
        ))}
        {chosen.length > firstShown && !all ? <li>and {chosen.length - firstShown} more</li> : null}
      </ul>
      {chosen.length > firstShown ? (
        <p>
          <button type="button" className="link-button" onClick={() => setAll(!all)}>
            {all ? `Show only the first ${firstShown}` : `Show all ${plural(chosen.length, 'file')}`}
          </button>
        </p>
      ) : null}
      {leftOut ? (
        <p className="muted small">
          {plural(leftOut, 'file')} left out: pictures, attachments and other files that hold nothing to
          import.
        </p>
      ) : null}
    </div>
  );
}

/** Notes written under a name the Brain already had: matched by folder and file names, so shown. */
function MatchedNotes({ matched }: { matched: NonNullable<ImportResult['matched_notes']> }) {
  const one = matched.count === 1;
  return (
    <div>
      <p>
        {plural(matched.count, 'note')} {one ? 'was' : 'were'} matched to {one ? 'a note' : 'notes'} already
        here by folder and file name, and written as {one ? 'its' : 'their'} new version (chosen another way
        before):
      </p>
      <ul className="list compact small" aria-label="Notes matched to notes already here">
        {matched.examples.map((m) => (
          <li key={m.item}>
            <span className="mono">{m.item}</span> → <span className="mono">{m.external_id}</span>
          </li>
        ))}
        {matched.count > matched.examples.length ? (
          <li>and {matched.count - matched.examples.length} more</li>
        ) : null}
      </ul>
    </div>
  );
}

function ImportSummary({ brainId, result }: { brainId: string; result: ImportResult }) {
  const nothing = result.imported === 0 && result.replaced === 0 && result.unchanged === 0;
  return (
    <div className="import-summary" role="status" aria-labelledby="import-result">
      <h3 id="import-result">{nothing ? 'Nothing was imported' : 'Import finished'}</h3>
      <p>
        {plural(result.imported, 'new item')} imported
        {result.replaced
          ? `, ${plural(result.replaced, 'item')} replaced with ${result.replaced === 1 ? 'its' : 'their'} new version`
          : ''}
        , {plural(result.unchanged, 'item')} already here
        {result.skipped_count ? `, ${plural(result.skipped_count, 'item')} skipped` : ''}
        {result.failed ? `, ${plural(result.failed, 'item')} could not be stored` : ''}.
      </p>
      {result.imported || result.replaced ? (
        <p>
          New items are worked into Memories in the background: see{' '}
          <Link to={paths.brain(brainId, 'records')}>Records</Link> and{' '}
          <Link to={paths.brain(brainId, 'memories')}>Memories</Link>.
        </p>
      ) : null}
      <ul className="list compact small" aria-label="How each choice was read">
        {result.parts.map((p) => (
          <li key={p.name}>
            <span className="mono">{p.name}</span>:{' '}
            {p.format ? `read as ${importFormatText[p.format].phrase}` : 'not a format Mnemo can read'} —{' '}
            {p.imported} new{p.replaced ? `, ${p.replaced} replaced` : ''}, {p.unchanged} already here,{' '}
            {p.skipped} skipped
            {p.failed ? `, ${p.failed} failed` : ''}.
            {p.note ? <span className="hint"> Note: {p.note}</span> : null}
          </li>
        ))}
      </ul>
      {result.matched_notes ? <MatchedNotes matched={result.matched_notes} /> : null}
      {result.skipped.length ? (
        <details>
          <summary>Why items were skipped</summary>
          <ul className="list compact small">
            {result.skipped.map((s, i) => (
              <li key={i}>
                <span className="mono">{s.item}</span>: {s.reason}
              </li>
            ))}
            {result.skipped_count > result.skipped.length ? (
              <li>and {result.skipped_count - result.skipped.length} more</li>
            ) : null}
          </ul>
        </details>
      ) : null}
      {result.failures.length ? (
        <ul className="list compact small" aria-label="Items that could not be stored">
          {result.failures.map((f, i) => (
            <li key={i}>
              <span className="mono">{f.item}</span>: {f.message} (<code>{f.code}</code>)
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
