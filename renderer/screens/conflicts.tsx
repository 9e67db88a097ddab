import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Memory } from '../../engine/contract/index.ts';
import type { ContestedSlot } from '../api/conflicts.ts';
import { useClient } from '../api/client.ts';
import { useCorrectMemory } from '../api/mutations.ts';
import { conflictsOptions, memoryOptions } from '../api/queries.ts';
import { Empty, ErrorNotice, Loading } from '../components/status.tsx';
import { formatDateTime, ownerLabel, validitySpan } from '../format.ts';
import { Link } from '../router.tsx';
import { paths } from '../routes.ts';

export function ConflictsScreen({ brainId }: { brainId: string }) {
  const client = useClient();
  const conflicts = useQuery(conflictsOptions(client, brainId));
  return (
    <>
      <h1 tabIndex={-1}>Conflicts</h1>
      <p className="lead">
        Places where sources disagree and neither replaces the other. Agents are told about the disagreement
        until you pick what is right.
      </p>
      {conflicts.isPending ? (
        <Loading what="conflicts" />
      ) : conflicts.isError ? (
        <ErrorNotice error={conflicts.error} />
      ) : conflicts.data.conflicts.length === 0 ? (
        <Empty title="No conflicts">Every current Memory agrees with the others.</Empty>
      ) : (
        <>
          {!conflicts.data.complete ? (
            <p className="notice">
              Only the first {conflicts.data.scanned.toLocaleString()} Memories were checked.
            </p>
          ) : null}
          <ul className="list">
            {conflicts.data.conflicts.map((slot) => (
              <SlotCard key={`${slot.subject}/${slot.predicate}`} brainId={brainId} slot={slot} />
            ))}
          </ul>
        </>
      )}
    </>
  );
}

function SlotCard({ brainId, slot }: { brainId: string; slot: ContestedSlot }) {
  const correct = useCorrectMemory(brainId);
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<unknown>(null);
  /** Keeping one value withdraws the others, each by its own correction Record. */
  const keep = async (keepId: string) => {
    setWorking(true);
    setError(null);
    try {
      for (const v of slot.values.filter((x) => x.id !== keepId)) {
        await correct.mutateAsync({ memoryId: v.id, reason: `Resolved in Conflicts: kept ${keepId}` });
      }
    } catch (e) {
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
              <span>true {validitySpan(v.valid_from, v.valid_to)}</span>
            </p>
            <ValueEvidence brainId={brainId} memory={v} />
            <button type="button" onClick={() => void keep(v.id)} disabled={working}>
              Keep this one<span className="visually-hidden">: {v.statement}</span>
            </button>
          </li>
        ))}
      </ul>
      {error ? <ErrorNotice error={error} /> : null}
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
