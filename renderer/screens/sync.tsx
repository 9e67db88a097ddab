import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { SyncStatus } from '../../engine/contract/index.ts';
import { useClient } from '../api/client.ts';
import {
  syncStatusOptions,
  useAcceptSyncForgets,
  usePairSync,
  useRunSync,
  useUnpairSync,
} from '../api/sync.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { ErrorNotice, Loading, errorHidesData } from '../components/status.tsx';
import { formatDateTime } from '../format.ts';
import { useFocusIfLost } from '../use-focus-if-lost.ts';
import { TableScroll } from '../components/table-scroll.tsx';
import { Link } from '../router.tsx';
import { paths } from '../routes.ts';

/** Pairing this Brain with a Brain on a hosted Mnemo: the form, the status and its counts, sync now, unpair. */
export function SyncScreen({ brainId }: { brainId: string }) {
  const client = useClient();
  const status = useQuery(syncStatusOptions(client, brainId));
  // Here, not in the paired view: that view is gone once unpairing has worked, and its word stays.
  const unpair = useUnpairSync(brainId);
  return (
    <>
      <h1 tabIndex={-1}>Sync</h1>
      <p className="lead">
        Keep this Brain in step with a Brain on a hosted Mnemo, and through it with your other devices.
        Shareable Records go up whole; “summary only” ones only as a redacted copy, or not at all; local-only
        Records never leave this device. Forgetting reaches every side.
      </p>
      {/* What a copy keeps and loses, said whole (docs/sync.md, the redactor): "addresses and numbers
          replaced" read as every address and number, and a health note went up word for word. */}
      <p className="hint" data-testid="sync-redaction">
        A summary-only copy keeps its words, dates and times as written. It replaces e-mail, web and IP
        addresses, phone, card and account numbers, street addresses, amounts of money, other numbers of three
        digits or more, dates of birth, passwords, PINs and door codes, and people’s names (those this Brain
        knows, common first names in many languages, and those written as names are: after a title or a word
        such as “landlord”, or with a surname) with placeholders such as [address] or [person-7KQ2]. A rare
        first name alone, a first name that is also a word opening a sentence, or a name in lower case may
        still go as written. A Record that speaks of health, sexual orientation, religion, political opinions,
        union membership or genetics is never sent, nor is one the redactor is unsure of: those are held back,
        and the newest are listed below with why.
      </p>
      {status.isPending ? (
        <Loading what="the sync status" />
      ) : status.data === undefined || errorHidesData(status) ? (
        <ErrorNotice error={status.error} />
      ) : status.data.paired ? (
        <Paired brainId={brainId} s={status.data} unpair={unpair} />
      ) : (
        <>
          {unpair.isSuccess ? <Unpaired /> : null}
          <PairForm brainId={brainId} />
        </>
      )}
    </>
  );
}

/** Said where the Unpair button was, which went with the paired view. */
function Unpaired() {
  const ref = useFocusIfLost<HTMLParagraphElement>();
  return (
    <p className="notice" role="status" tabIndex={-1} ref={ref}>
      Unpaired. Nothing was deleted, here or there.
    </p>
  );
}

/** The form's labels of the fields a refusal names (`remote_key: … refused the key`). */
const pairLabels = {
  remote: 'Hosted Mnemo',
  remote_brain: 'Brain there',
  remote_key: 'Key of the hosted Mnemo',
};

function PairForm({ brainId }: { brainId: string }) {
  const pair = usePairSync(brainId);
  const [remote, setRemote] = useState('');
  const [remoteBrain, setRemoteBrain] = useState('');
  const [remoteKey, setRemoteKey] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (pair.isPending) return;
    pair.mutate({
      remote: remote.trim(),
      remote_key: remoteKey.trim(),
      ...(remoteBrain.trim() ? { remote_brain: remoteBrain.trim() } : {}),
    });
  };
  return (
    <form className="form" onSubmit={submit} aria-label="Pair with a hosted Mnemo">
      <label>
        Hosted Mnemo <span className="hint">its address, ending in /v1</span>
        <input
          name="remote"
          type="url"
          required
          placeholder="https://mnemo.example.org/v1"
          value={remote}
          onChange={(e) => setRemote(e.target.value)}
        />
      </label>
      <label>
        Brain there <span className="hint">default: {brainId}</span>
        <input name="remote_brain" value={remoteBrain} onChange={(e) => setRemoteBrain(e.target.value)} />
      </label>
      <label>
        Key of the hosted Mnemo <span className="hint">kept encrypted on this device, never shown again</span>
        <input
          name="remote_key"
          type="password"
          autoComplete="off"
          required
          value={remoteKey}
          onChange={(e) => setRemoteKey(e.target.value)}
        />
      </label>
      {pair.isError ? <ErrorNotice error={pair.error} fields={pairLabels} /> : null}
      {/* aria-disabled, not disabled: a disabled button would drop keyboard focus to <body>. */}
      <button type="submit" className="primary" aria-disabled={pair.isPending || undefined}>
        {pair.isPending ? 'Pairing…' : 'Pair'}
      </button>
    </form>
  );
}

function Paired({
  brainId,
  s,
  unpair,
}: {
  brainId: string;
  s: SyncStatus;
  unpair: ReturnType<typeof useUnpairSync>;
}) {
  const run = useRunSync(brainId);
  // The pairing form is gone once it worked: focus comes to what it made.
  const said = useFocusIfLost<HTMLParagraphElement>();
  const counts: [string, number][] = [
    ['Waiting to go up', s.pending],
    ['Pushed', s.pushed],
    ['Pulled', s.pulled],
    // A forget made on the hub or another device reaches this device: how many it took here.
    ['Forgotten here because the hosted Mnemo said so', s.forgotten_by_remote ?? 0],
    ['Held back (summary only, not sent)', s.held_back],
    // Said, or a person who made a correction sees a count of something gone wrong (docs/sync.md).
    ['Skipped (corrections of Memories kept on this device, and Records refused on either side)', s.skipped],
    // What corrections from other sides did here: each side words its Memories its own way (docs/sync.md).
    ...(s.corrections &&
    s.corrections.applied + s.corrections.applied_by_fallback + s.corrections.not_applied > 0
      ? ([
          ['Corrections from other sides applied', s.corrections.applied],
          ['… applied by a fallback (worded otherwise here)', s.corrections.applied_by_fallback],
          ['… not applied (the Records list says why)', s.corrections.not_applied],
        ] as [string, number][])
      : []),
  ];
  return (
    <section aria-label="Sync status">
      <p tabIndex={-1} ref={said}>
        Paired with Brain <strong>{s.remote_brain}</strong> at <code>{s.remote}</code>.
      </p>
      <p data-testid="sync-last-success">
        Last synced: {s.last_success_at ? formatDateTime(s.last_success_at) : 'not yet'}
      </p>
      {s.catching_up ? (
        // A long sync under way (its page limit or its 30 minutes reached, or its server stopped, progress
        // kept) is no failure, though last_error names the deadline or the stop.
        <p role="status" data-testid="sync-catching-up">
          Still catching up: the last run stopped with more to do and kept what it had done. The next run goes
          on by itself.
        </p>
      ) : s.last_error ? (
        <p className="notice" role="alert" data-testid="sync-last-error">
          Last attempt failed: {s.last_error}
        </p>
      ) : null}
      {/* What sync found and went on past: the two Brains' selves differ, or an older hub refused a field. */}
      {s.warning ? (
        <p className="notice" role="status" data-testid="sync-warning">
          {s.warning}
        </p>
      ) : null}
      <PullBudget s={s} allowMore={() => !run.isPending && run.mutate({ allowMore: true })} />
      {(s.forgets_held ?? 0) > 0 ? (
        <HeldForgets brainId={brainId} held={s.forgets_held} examples={s.forgets_held_examples ?? []} />
      ) : null}
      <p className="muted" data-testid="sync-next-run">
        Next sync:{' '}
        {s.running ? 'under way now' : s.next_run_at ? formatDateTime(s.next_run_at) : 'none planned'}
      </p>
      <TableScroll label="Sync counts">
        <table className="table" aria-label="Sync counts">
          <tbody>
            {counts.map(([label, n]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td>{n}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {/* Which ones: a count alone left a person no way to see what did not travel, nor why. */}
      <RecordsOfFate
        brainId={brainId}
        label="Held back, the newest"
        records={s.held_back_reasons.map((r) => ({ id: r.record_id, why: r.reason ?? heldBackBefore }))}
      />
      <RecordsOfFate
        brainId={brainId}
        label="Skipped, the newest"
        records={s.skipped_examples.map((id) => ({ id, why: null }))}
      />
      {run.isError ? <ErrorNotice error={run.error} /> : null}
      {unpair.isError ? <ErrorNotice error={unpair.error} /> : null}
      <div className="row">
        {/* aria-disabled, not disabled: a disabled button would drop keyboard focus to <body>. */}
        <button
          type="button"
          className="primary"
          aria-disabled={run.isPending || undefined}
          onClick={() => !run.isPending && run.mutate()}
        >
          {run.isPending ? 'Syncing…' : 'Sync now'}
        </button>
        <button
          type="button"
          aria-disabled={unpair.isPending || undefined}
          onClick={() => !unpair.isPending && unpair.mutate()}
        >
          Unpair
        </button>
      </div>
      <p className="hint">Unpairing deletes nothing, here or there.</p>
    </section>
  );
}

/** Bytes as a person reads them (as `mnemo sync status` says them). */
function bytesText(n: number): string {
  if (n >= 1024 ** 3 && n % 1024 ** 3 === 0) return `${n / 1024 ** 3} GiB`;
  if (n >= 1024 ** 2 && n % 1024 ** 2 === 0) return `${n / 1024 ** 2} MiB`;
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)} MB`;
  if (n >= 1_000) return `${(n / 1_000).toFixed(1)} kB`;
  return `${n} bytes`;
}

/**
 * What the pull read in the last day against its budget, and, while the budget pauses it, the way to
 * allow more: the warning above says why and until when (a server older than the budget gives none).
 */
function PullBudget({ s, allowMore }: { s: SyncStatus; allowMore: () => void }) {
  const b = s.pull_budget;
  if (!b) return null;
  return (
    <div data-testid="sync-pull-budget">
      <p className="muted">
        Pulled in the last 24 hours: {b.records.toLocaleString()} of {b.records_per_day.toLocaleString()}{' '}
        Records, {bytesText(b.bytes)} of {bytesText(b.bytes_per_day)}.
        {b.paused_until ? ` The pull is paused until ${formatDateTime(b.paused_until)}.` : null}
      </p>
      {b.paused_until ? (
        <p className="hint">
          Your own large history arriving from another device?{' '}
          <button type="button" onClick={allowMore}>
            Allow more
          </button>{' '}
          lets the pull read another day’s budget from now.
        </p>
      ) : null}
    </div>
  );
}

/**
 * Forgets the hosted Mnemo asked for that sync held (more than it forgets without asking): nothing is
 * forgotten until the person confirms that many here; unpairing keeps them all (docs/sync.md). The
 * newest of them are named, each linking to its Record: a count alone was confirmed blind.
 */
function HeldForgets({
  brainId,
  held,
  examples,
}: {
  brainId: string;
  held: number;
  examples: readonly string[];
}) {
  const accept = useAcceptSyncForgets(brainId);
  const [asking, setAsking] = useState(false);
  const records = `${held} ${held === 1 ? 'Record' : 'Records'}`;
  return (
    <div className="notice" role="status" data-testid="sync-held-forgets">
      <p>
        The hosted Mnemo asked this device to forget {records} of this Brain, more than sync forgets without
        asking. Nothing is forgotten until you confirm. If they were removed on purpose (an import removed on
        another device), forget them here too; to keep them, unpair.
      </p>
      {examples.length > 0 ? (
        <p className="muted" data-testid="sync-held-forgets-examples">
          {held > examples.length ? 'The newest of them' : 'They are'}:{' '}
          <RecordIdLinks brainId={brainId} ids={examples} />
        </p>
      ) : null}
      {accept.isError ? <ErrorNotice error={accept.error} /> : null}
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        Forget {records} here…
      </button>
      <ConfirmDialog
        open={asking}
        title={`Forget ${records}?`}
        confirmLabel={`Forget ${records}`}
        busy={accept.isPending}
        onCancel={() => setAsking(false)}
        onConfirm={() =>
          accept.mutate(held, {
            onSettled: () => setAsking(false),
          })
        }
      >
        <p>
          They are forgotten on this device as the hosted Mnemo asked, and cannot be brought back here. If
          more were asked for meanwhile, nothing is forgotten and the panel shows the new number.
        </p>
      </ConfirmDialog>
    </div>
  );
}

/** Said of a Record held back by a version that kept no reason. */
const heldBackBefore = 'held back by an earlier version, which kept no reason';

/**
 * Records of one fate (held back, skipped), by id, each linking to its page, with why where it is kept:
 * what did not travel, and why.
 */
function RecordsOfFate({
  brainId,
  label,
  records,
}: {
  brainId: string;
  label: string;
  records: readonly { id: string; why: string | null }[];
}) {
  if (records.length === 0) return null;
  const withWhy = records.some((r) => r.why !== null);
  return (
    <div className="muted" data-testid="sync-records-of-fate">
      {label}:{withWhy ? null : ' '}
      {withWhy ? (
        <ul>
          {records.map(({ id, why }) => (
            <li key={id}>
              <Link to={paths.record(brainId, id)} className="mono">
                {id}
              </Link>
              {why !== null ? `: ${why}` : null}
            </li>
          ))}
        </ul>
      ) : (
        <RecordIdLinks brainId={brainId} ids={records.map((r) => r.id)} />
      )}
    </div>
  );
}

/** Record ids in a line, comma-separated, each linking to its page. */
function RecordIdLinks({ brainId, ids }: { brainId: string; ids: readonly string[] }) {
  return ids.map((id, i) => (
    <span key={id}>
      {i > 0 ? ', ' : null}
      <Link to={paths.record(brainId, id)} className="mono">
        {id}
      </Link>
    </span>
  ));
}
