import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Memory } from '../../engine/contract/index.ts';
import { inListOrder, type ContestedSlot } from '../api/conflicts.ts';
import { useClient } from '../api/client.ts';
import { useCorrectMemory } from '../api/mutations.ts';
import {
  censusOptions,
  conflictListKey,
  conflictStep,
  conflictsOptions,
  memoryOptions,
  readContested,
  readContestedSlot,
  type ConflictList,
} from '../api/queries.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { Empty, ErrorNotice, Loading, errorHidesData } from '../components/status.tsx';
import { RecordLink } from '../components/record-link.tsx';
import { evidenceWhen, memoryDays } from '../all-day.ts';
import { aboutLabel, quoteAddsWords, quoteLabel, sameWordsLabel, statementLabel } from '../record-text.ts';
import { ownerLabel, plural, truthPhrase } from '../format.ts';
import { Link } from '../router.tsx';
import { useFolded } from '../components/folded-list.tsx';
import { paths } from '../routes.ts';

export function ConflictsScreen({ brainId }: { brainId: string }) {
  const client = useClient();
  const qc = useQueryClient();
  // The server lists the contested values themselves (however large the Brain), oldest first.
  const list = useQuery(
    conflictsOptions(client, brainId, () => qc.getQueryData<ConflictList>(conflictListKey(brainId))),
  );
  // The census counts every contested value: how many there are in all, while the list is partial.
  const census = useQuery(censusOptions(client, brainId, qc));
  const counted = census.data?.noise.find((n) => n.kind === 'conflicts')?.count ?? null;
  const complete = list.data ? list.data.cursor === null : false;
  const conflicts = list.data?.conflicts ?? [];
  const more = useMutation({
    mutationFn: async () => {
      const from = list.data?.cursor ?? null;
      if (from === null) return;
      const next = await readContested(client, brainId, from, conflictStep);
      qc.setQueryData<ConflictList>(conflictListKey(brainId), (old) =>
        old ? { memories: inListOrder([...old.memories, ...next.memories]), cursor: next.cursor } : old,
      );
    },
  });
  // The card a choice resolved goes away: what was kept and withdrawn is said here instead.
  const [resolved, setResolved] = useState<{ kept: Memory; withdrawn: Memory[] } | null>(null);
  const partial = list.data ? (
    <>
      Only the first {plural(list.data.memories.length, 'disagreeing value')}
      {counted !== null && counted > list.data.memories.length ? ` of ${counted.toLocaleString()}` : ''} are
      shown
      {list.data.waiting > 0
        ? `; ${plural(list.data.waiting, 'value')} whose other side comes later ${list.data.waiting === 1 ? 'waits' : 'wait'} for it`
        : ''}
      .{' '}
      <button
        type="button"
        aria-disabled={more.isPending || undefined}
        onClick={() => more.isPending || more.mutate()}
      >
        {more.isPending ? 'Reading…' : `Show the next ${conflictStep.toLocaleString()}`}
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
          <p className="notice ok">
            Kept <Link to={paths.memory(brainId, resolved.kept.id)}>“{statementLabel(resolved.kept)}”</Link>;
            withdrew{' '}
            {resolved.withdrawn.map((w, i) => (
              <span key={w.id}>
                {i > 0 ? ', ' : ''}
                <Link to={paths.memory(brainId, w.id)}>“{statementLabel(w)}”</Link>
              </span>
            ))}
            . Agents are no longer told of the withdrawn{' '}
            {resolved.withdrawn.length === 1 ? 'value' : 'values'}.
          </p>
        ) : null}
      </div>
      {list.isPending ? (
        <Loading what="conflicts" />
      ) : list.data === undefined || errorHidesData(list) ? (
        <ErrorNotice error={list.error} />
      ) : (
        <>
          {more.isError ? <ErrorNotice error={more.error} /> : null}
          {conflicts.length === 0 ? (
            complete ? (
              // What is checked is two values for one slot, nothing more: said so, not "all agree".
              <Empty title="No conflicts">
                No two current Memories give different values for the same thing (someone’s home city, say).
                Statements that contradict each other in other ways are not looked for here.
              </Empty>
            ) : (
              // A partial list never claims there are none.
              <Empty title="No conflicts shown yet">{partial}</Empty>
            )
          ) : (
            <>
              {!complete ? <p className="notice">{partial}</p> : null}
              <ul className="list">
                {conflicts.map((slot) => (
                  <SlotCard key={slot.slot} brainId={brainId} slot={slot} onResolved={setResolved} />
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </>
  );
}

function SlotCard({
  brainId,
  slot,
  onResolved,
}: {
  brainId: string;
  slot: ContestedSlot;
  onResolved: (r: { kept: Memory; withdrawn: Memory[] }) => void;
}) {
  const client = useClient();
  const correct = useCorrectMemory(brainId);
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [choosing, setChoosing] = useState<{ kept: Memory; others: Memory[] } | null>(null);
  /**
   * What keeping a value withdraws is read from the slot as it is now, not from the card: a list read
   * in steps can show two of a slot's three values, and an agent can add one while the card is open.
   */
  const choose = async (kept: Memory) => {
    setWorking(true);
    setError(null);
    try {
      const now = (await readContestedSlot(client, brainId, slot.slot)) ?? slot.values;
      if (!now.some((x) => x.id === kept.id))
        throw new Error(
          `“${statementLabel(kept)}” is no longer one of the disagreeing values; the list is being updated.`,
        );
      setChoosing({ kept, others: now.filter((x) => x.id !== kept.id) });
    } catch (e) {
      setError(e);
    } finally {
      setWorking(false);
    }
  };
  /** Keeping one value withdraws the others, each by its own correction Record. */
  const keep = async ({ kept, others }: { kept: Memory; others: Memory[] }) => {
    setWorking(true);
    setError(null);
    try {
      for (const v of others) {
        await correct.mutateAsync({
          memoryId: v.id,
          reason: `Resolved in Conflicts: kept “${statementLabel(kept)}”`,
        });
      }
      setChoosing(null);
      onResolved({ kept, withdrawn: others });
    } catch (e) {
      setChoosing(null);
      setError(e);
    } finally {
      setWorking(false);
    }
  };
  const headingId = `slot-${slot.slot}`.replace(/[^A-Za-z0-9_-]/g, '_');
  return (
    <li className="list-item card" aria-labelledby={headingId}>
      <h2 id={headingId}>{aboutLabel(slot)}</h2>
      <ul className="values">
        {slot.values.map((v) => (
          <li key={v.id}>
            <p className="strong">
              <Link to={paths.memory(brainId, v.id)}>{statementLabel(v)}</Link>
            </p>
            <p className="meta">
              <span>{ownerLabel(v.owner)}</span>
              <span>{truthPhrase(v.valid_from, v.valid_to, memoryDays(v) !== null, v.status)}</span>
            </p>
            <ValueEvidence brainId={brainId} memory={v} />
            <button
              type="button"
              aria-disabled={working || undefined}
              onClick={() => working || void choose(v)}
            >
              Keep this one<span className="visually-hidden">: {statementLabel(v)}</span>
            </button>
          </li>
        ))}
      </ul>
      {error ? <ErrorNotice error={error} /> : null}
      {choosing ? (
        <ConfirmDialog
          open
          title={`Keep “${statementLabel(choosing.kept)}”?`}
          confirmLabel={
            choosing.others.length === 1 ? 'Keep it, withdraw the other' : 'Keep it, withdraw the others'
          }
          busy={working}
          onCancel={() => setChoosing(null)}
          onConfirm={() => void keep(choosing)}
        >
          <p>This withdraws:</p>
          <ul>
            {choosing.others.map((o) => (
              <li key={o.id}>{statementLabel(o)}</li>
            ))}
          </ul>
          <p>
            A withdrawn value is kept in its Memory’s history, but agents are no longer told of it. Each
            withdrawal is a correction Record: forgetting it later (on Records) brings the value back.
          </p>
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
  const detail = useQuery(memoryOptions(client, brainId, memory.id, useQueryClient()));
  const evidence = detail.data?.evidence;
  // A value many Records repeat: its first few sources are drawn, as on the Memory's page.
  const evidenceFold = useFolded(evidence ?? [], 'sources');
  const citationFold = useFolded(memory.citations, 'sources');
  if (!evidence) {
    const quotes = citationFold.shown.map((c, i) => (
      <blockquote key={i} className="quote">
        {quoteAddsWords(c.quote, memory) ? (
          <mark>{quoteLabel(c.quote, memory)}</mark>
        ) : (
          <span className="muted small">{sameWordsLabel(memory)}</span>
        )}{' '}
        <RecordLink brainId={brainId} id={c.record_id} className="mono muted small" />
      </blockquote>
    ));
    return (
      <>
        {quotes}
        {citationFold.toggle}
      </>
    );
  }
  const quotes = evidenceFold.shown.map((e) => (
    <blockquote key={e.record_id} className="quote">
      {quoteAddsWords(e.quote, memory, e.kind) ? <mark>{quoteLabel(e.quote, memory, e.kind)}</mark> : null}
      <span className="meta small">
        {quoteAddsWords(e.quote, memory, e.kind) ? null : <span>{sameWordsLabel(memory, e.kind)}</span>}
        <span>{e.source_name ? `from ${e.source_name}` : 'no source given'}</span>
        <span>{evidenceWhen(e)}</span>
        <RecordLink brainId={brainId} id={e.record_id} className="mono muted" />
      </span>
    </blockquote>
  ));
  return (
    <>
      {quotes}
      {evidenceFold.toggle}
    </>
  );
}
