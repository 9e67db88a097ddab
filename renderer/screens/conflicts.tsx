import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Memory } from '../../engine/contract/index.ts';
import { findConflicts, type ContestedSlot } from '../api/conflicts.ts';
import { useClient } from '../api/client.ts';
import { useCorrectMemory } from '../api/mutations.ts';
import {
  censusOptions,
  conflictExamplesOptions,
  conflictScanKey,
  conflictScanLimit,
  conflictsOptions,
  memoryOptions,
  scanMemories,
  type ConflictScan,
} from '../api/queries.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { Empty, ErrorNotice, Loading, errorHidesData } from '../components/status.tsx';
import { formatDateTime, ownerLabel, plural, truthPhrase } from '../format.ts';
import { Link } from '../router.tsx';
import { paths } from '../routes.ts';

export function ConflictsScreen({ brainId }: { brainId: string }) {
  const client = useClient();
  const qc = useQueryClient();
  const scan = useQuery(
    conflictsOptions(client, brainId, () => qc.getQueryData<ConflictScan>(conflictScanKey(brainId))),
  );
  // The census counts the conflicting Memories of the whole Brain, however large: the scan is checked
  // against it, and its examples are looked up when the scan has not reached them.
  const census = useQuery(censusOptions(client, brainId));
  const noise = census.data?.noise.find((n) => n.kind === 'conflicts');
  const counted = noise?.count ?? null;
  const complete = scan.data ? scan.data.cursor === null : false;
  const listedIds = new Set(scan.data?.conflicts.flatMap((s) => s.values.map((v) => v.id)) ?? []);
  const missing = complete ? [] : (noise?.examples.filter((id) => !listedIds.has(id)) ?? []);
  const examples = useQuery(conflictExamplesOptions(client, brainId, missing));
  const conflicts = scan.data
    ? examples.data
      ? findConflicts(uniqueById([...scan.data.memories, ...examples.data]))
      : scan.data.conflicts
    : [];
  const listed = conflicts.reduce((n, s) => n + s.values.length, 0);
  // Reading on past where the scan stopped.
  const more = useMutation({
    mutationFn: async () => {
      const from = scan.data?.cursor ?? null;
      if (from === null) return;
      const next = await scanMemories(client, brainId, from);
      qc.setQueryData<ConflictScan>(conflictScanKey(brainId), (old) =>
        old
          ? {
              memories: uniqueById([...old.memories, ...next.memories]),
              scanned: old.scanned + next.memories.length,
              cursor: next.cursor,
            }
          : old,
      );
    },
  });
  // The card a choice resolved goes away: what was kept and withdrawn is said here instead.
  const [resolved, setResolved] = useState<{ kept: Memory; withdrawn: Memory[] } | null>(null);
  const total = census.data?.counts.memories_active;
  const checked = scan.data ? (
    <>
      Only the first {scan.data.scanned.toLocaleString()}
      {total !== undefined ? ` of ${total.toLocaleString()}` : ''} current Memories were checked
      {counted !== null && counted > listed
        ? `; the Census counts ${plural(counted, 'Memory', 'Memories')} that disagree with another current value`
        : ''}
      .{' '}
      <button
        type="button"
        aria-disabled={more.isPending || undefined}
        onClick={() => more.isPending || more.mutate()}
      >
        {more.isPending ? 'Checking…' : `Check the next ${conflictScanLimit.toLocaleString()}`}
      </button>
    </>
  ) : null;
  return (
    <>
      <h1 tabIndex={-1}>Conflicts</h1>
      <p className="lead">
        Places where sources disagree and neither replaces the other. Agents are told about the disagreement
        until you pick what is right.
      </p>
      <div role="status">
        {resolved ? (
          <p className="notice">
            Kept <Link to={paths.memory(brainId, resolved.kept.id)}>“{resolved.kept.statement}”</Link>;
            withdrew{' '}
            {resolved.withdrawn.map((w, i) => (
              <span key={w.id}>
                {i > 0 ? ', ' : ''}
                <Link to={paths.memory(brainId, w.id)}>“{w.statement}”</Link>
              </span>
            ))}
            . Agents are no longer told of the withdrawn{' '}
            {resolved.withdrawn.length === 1 ? 'value' : 'values'}.
          </p>
        ) : null}
      </div>
      {scan.isPending ? (
        <Loading what="conflicts" />
      ) : scan.data === undefined || errorHidesData(scan) ? (
        <ErrorNotice error={scan.error} />
      ) : (
        <>
          {more.isError ? <ErrorNotice error={more.error} /> : null}
          {conflicts.length === 0 ? (
            complete ? (
              <Empty title="No conflicts">Every current Memory agrees with the others.</Empty>
            ) : (
              // An incomplete scan never claims there are none.
              <Empty title="No conflicts found so far">{checked}</Empty>
            )
          ) : (
            <>
              {!complete ? <p className="notice">{checked}</p> : null}
              <ul className="list">
                {conflicts.map((slot) => (
                  <SlotCard
                    key={`${slot.subject}/${slot.predicate}`}
                    brainId={brainId}
                    slot={slot}
                    onResolved={setResolved}
                  />
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </>
  );
}

const uniqueById = (ms: Memory[]) => [...new Map(ms.map((m) => [m.id, m])).values()];

function SlotCard({
  brainId,
  slot,
  onResolved,
}: {
  brainId: string;
  slot: ContestedSlot;
  onResolved: (r: { kept: Memory; withdrawn: Memory[] }) => void;
}) {
  const correct = useCorrectMemory(brainId);
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [choosing, setChoosing] = useState<Memory | null>(null);
  const others = (keep: Memory) => slot.values.filter((x) => x.id !== keep.id);
  /** Keeping one value withdraws the others, each by its own correction Record. */
  const keep = async (kept: Memory) => {
    setWorking(true);
    setError(null);
    try {
      for (const v of others(kept)) {
        await correct.mutateAsync({
          memoryId: v.id,
          reason: `Resolved in Conflicts: kept “${kept.statement}”`,
        });
      }
      setChoosing(null);
      onResolved({ kept, withdrawn: others(kept) });
    } catch (e) {
      setChoosing(null);
      setError(e);
    } finally {
      setWorking(false);
    }
  };
  const headingId = `slot-${slot.subject}-${slot.predicate}`.replace(/[^A-Za-z0-9_-]/g, '_');
  return (
    <li className="list-item card" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {slot.subject} · {slot.predicate}
      </h2>
      <ul className="values">
        {slot.values.map((v) => (
          <li key={v.id}>
            <p className="strong">
              <Link to={paths.memory(brainId, v.id)}>{v.statement}</Link>
            </p>
            <p className="meta">
              <span>{ownerLabel(v.owner)}</span>
              <span>{truthPhrase(v.valid_from, v.valid_to)}</span>
            </p>
            <ValueEvidence brainId={brainId} memory={v} />
            <button type="button" onClick={() => setChoosing(v)} disabled={working}>
              Keep this one<span className="visually-hidden">: {v.statement}</span>
            </button>
          </li>
        ))}
      </ul>
      {error ? <ErrorNotice error={error} /> : null}
      {choosing ? (
        <ConfirmDialog
          open
          title={`Keep “${choosing.statement}”?`}
          confirmLabel={
            others(choosing).length === 1 ? 'Keep it, withdraw the other' : 'Keep it, withdraw the others'
          }
          busy={working}
          onCancel={() => setChoosing(null)}
          onConfirm={() => void keep(choosing)}
        >
          <p>This withdraws, for good:</p>
          <ul>
            {others(choosing).map((o) => (
              <li key={o.id}>{o.statement}</li>
            ))}
          </ul>
          <p>A withdrawn value is kept in its Memory’s history, but agents are no longer told of it.</p>
        </ConfirmDialog>
      ) : null}
    </li>
  );
}

/**
 * Each value's evidence: the quote, and where and when it was said (read from the Memory's page
 * data). Until that arrives, or if it fails, the quotes alone still show.
 */
function ValueEvidence({ brainId, memory }: { brainId: string; memory: Memory }) {
  const client = useClient();
  const detail = useQuery(memoryOptions(client, brainId, memory.id));
  const evidence = detail.data?.evidence;
  if (!evidence) {
    return memory.citations.map((c, i) => (
      <blockquote key={i} className="quote">
        <mark>{c.quote}</mark> <span className="mono muted small">{c.record_id}</span>
      </blockquote>
    ));
  }
  return evidence.map((e) => (
    <blockquote key={e.record_id} className="quote">
      <mark>{e.quote}</mark>
      <span className="meta small">
        <span>{e.source_name ? `from ${e.source_name}` : 'no source given'}</span>
        <span>{formatDateTime(e.occurred_at)}</span>
        <span className="mono muted">{e.record_id}</span>
      </span>
    </blockquote>
  ));
}
