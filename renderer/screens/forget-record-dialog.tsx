import { useId, useState } from 'react';
import { useQueries } from '@tanstack/react-query';
import type { MemoryDetail, MnemoRecord } from '../../engine/contract/index.ts';
import { isMnemoApiError, useClient } from '../api/client.ts';
import { useForgetRecords } from '../api/mutations.ts';
import { memoryOptions, recordOptions } from '../api/queries.ts';
import { useCorrectedMemory } from '../api/corrected-memory.ts';
import { useSelfName } from '../api/self-name.ts';
import { ClampedText } from '../components/clamped-text.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { ErrorNotice } from '../components/status.tsx';
import { formatDateTime, oneLine, plural } from '../format.ts';
import { recordsForgotten, type RecordForgetResult } from '../forgotten.ts';
import {
  afterForgetting,
  memoryReadCap,
  otherSupport,
  recordReadCap,
  type SupportedMemory,
} from '../other-support.ts';
import {
  correctionSummary,
  correctionUndone,
  kindLabels,
  recordSummary,
  statementLabel,
} from '../record-text.ts';

/** An error in words for a notice: the server's message, and its code where it has one. */
function errorWords(error: unknown): string {
  if (isMnemoApiError(error)) return `${error.message.trim()} (${error.code})`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Forget a Record, and with it, if the person chooses, the other Records its Memories rest on: forgotten
 * alone, a Memory another Record repeats (an assistant's "Noted: you live in Braga.") stays, now
 * resting on that Record. The dialog reads the Record's Memories (at most memoryReadCap of them) and
 * the Records they cite (at most recordReadCap), names each with who said it, when and its opening
 * words, and offers each with a checkbox, none chosen at first. What cannot be read is said, and the
 * Record itself can still be forgotten. `onForgotten` gets the sentence saying what was removed.
 */
export function ForgetRecordDialog({
  brainId,
  record,
  onClose,
  onForgotten,
}: {
  brainId: string;
  record: MnemoRecord;
  onClose: () => void;
  onForgotten: (said: string) => void;
}) {
  const client = useClient();
  const forget = useForgetRecords(brainId);
  const selfName = useSelfName(brainId);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const ids = useId();
  // A correction names the Memory it changed by id alone: read, so the dialog and its notice can say
  // which Memory comes back as it was.
  const corrects = record.content.kind === 'correction' ? record.content.corrects : null;
  const targetLabel = useCorrectedMemory(brainId, corrects);
  const summary = correctionSummary(record.content, targetLabel, selfName);
  const undone = correctionUndone(record.content, targetLabel);

  const memoryIds = record.memory_ids.slice(0, memoryReadCap);
  const memoryReads = useQueries({
    queries: memoryIds.map((id) => ({ ...memoryOptions(client, brainId, id), retry: false })),
  });
  const memories: SupportedMemory[] = memoryReads
    .map((q) => q.data)
    .filter((m): m is MemoryDetail => m !== undefined)
    .map((m) => ({ id: m.id, label: statementLabel(m), citations: m.citations }));
  const memoriesPending = memoryReads.some((q) => q.isPending);
  // A Memory forgotten meanwhile has no support left to name; any other failure hides what it rests on.
  const memoriesFailed = memoryReads.filter(
    (q) => q.isError && !(isMnemoApiError(q.error) && q.error.code === 'memory_not_found'),
  );
  const others = otherSupport(record.id, memories);
  const offered = others.slice(0, recordReadCap);
  const recordReads = useQueries({
    queries: offered.map((o) => recordOptions(client, brainId, o.recordId)),
  });
  const recordsPending = recordReads.some((q) => q.isPending);
  const unreadable = offered.filter((_, i) => recordReads[i]!.isError);
  const erasable = offered.filter((_, i) => recordReads[i]!.data?.erasable);
  const chosenNow = new Set([...chosen].filter((id) => erasable.some((o) => o.recordId === id)));
  const after = afterForgetting(record.id, memories, chosenNow);

  const toggle = (id: string) =>
    setChosen((c) => {
      const next = new Set(c);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const confirm = () => {
    if (forget.isPending) return;
    const order = [record.id, ...erasable.map((o) => o.recordId).filter((id) => chosenNow.has(id))];
    const summaries = new Map(
      offered.map((o, i) => {
        const r = recordReads[i]!.data;
        return [o.recordId, r ? recordSummary(r.content, selfName) : o.recordId] as const;
      }),
    );
    summaries.set(record.id, summary);
    forget.mutateAsync(order).then(
      (results) =>
        onForgotten(
          withTargetBack(
            results.some((r) => r.id === record.id && 'receipt' in r),
            targetLabel,
          )(
            recordsForgotten(
              results.map((r): RecordForgetResult =>
                'receipt' in r
                  ? { summary: summaries.get(r.id) ?? r.id, receipt: r.receipt }
                  : {
                      summary: summaries.get(r.id) ?? r.id,
                      error: errorWords(r.error),
                      alreadyGone: isMnemoApiError(r.error) && r.error.code === 'record_not_found',
                    },
              ),
            ),
          ),
        ),
      // The Record itself could not be forgotten: nothing was, and the dialog shows why.
      () => {},
    );
  };

  const count = 1 + chosenNow.size;
  const loading = memoriesPending || recordsPending;
  const notRead = memoriesFailed.length + unreadable.length;
  return (
    <ConfirmDialog
      open
      title="Forget this Record?"
      confirmLabel={count === 1 ? 'Forget Record' : `Forget ${count} Records`}
      busy={forget.isPending}
      onCancel={onClose}
      onConfirm={confirm}
    >
      {/* Its opening words: a long note's whole text made the dialog taller than the screen, its title
          scrolled out of sight. */}
      <blockquote className="quote">
        <ClampedText text={summary} limit={300} />
      </blockquote>
      {undone ? (
        <p>
          <strong>{undone}</strong>
        </p>
      ) : null}
      <p>
        Its text is removed for good. Memories that rest only on it are removed too
        {record.memory_ids.length
          ? ` (this Record supports ${plural(record.memory_ids.length, 'Memory', 'Memories')})`
          : ''}
        ; Memories with other support are worked out again from what remains. The Traces of questions that
        found it go too, since each would show it.
      </p>
      {record.memory_ids.length === 0 ? null : loading ? (
        <p className="hint" role="status">
          Looking for other Records that support its Memories…
        </p>
      ) : (
        <>
          {offered.length > 0 ? (
            <fieldset className="other-records">
              <legend>Other Records that support the same Memories</legend>
              <p className="hint" id={`${ids}-why`}>
                Each Memory below stays while any Record that supports it is kept. Choose any to forget with
                this one: a Record is removed whole, with any other Memory that rests only on it.
              </p>
              <ul className="other-records-list">
                {offered.map((o, i) => {
                  const read = recordReads[i]!;
                  const r = read.data;
                  const supports = (
                    <p className="hint">
                      Supports: {o.memories.map((m) => `“${oneLine(m.label, 120)}”`).join(', ')}
                    </p>
                  );
                  if (!r)
                    return (
                      <li key={o.recordId}>
                        <p>
                          A Record this page could not read (<code>{o.recordId}</code>
                          {read.error ? `: ${errorWords(read.error)}` : ''}): it cannot be forgotten from
                          here.
                        </p>
                        {supports}
                      </li>
                    );
                  const said = oneLine(recordSummary(r.content, selfName), 160);
                  const when = `${r.content.kind === 'message' ? 'said' : 'written'} ${formatDateTime(r.occurred_at)}`;
                  const from = r.source.name ? ` · from ${r.source.name}` : '';
                  return (
                    <li key={o.recordId}>
                      {r.erasable ? (
                        <label className="check">
                          <input
                            type="checkbox"
                            checked={chosenNow.has(o.recordId)}
                            onChange={() => toggle(o.recordId)}
                            aria-describedby={`${ids}-${i}-meta`}
                          />
                          <span dir="auto">{said}</span>
                        </label>
                      ) : (
                        <p dir="auto">{said}</p>
                      )}
                      <p className="hint" id={`${ids}-${i}-meta`}>
                        {kindLabels[r.kind]}, {when}
                        {from}
                        {r.erasable ? null : ' · imported: only removing its whole import forgets it'}
                      </p>
                      {supports}
                    </li>
                  );
                })}
              </ul>
            </fieldset>
          ) : notRead === 0 && record.memory_ids.length <= memoryReadCap ? (
            <p className="hint">No other Record supports its Memories.</p>
          ) : null}
          {others.length > offered.length ? (
            <p className="hint">
              {plural(others.length - offered.length, 'more Record')} also{' '}
              {others.length - offered.length === 1 ? 'supports' : 'support'} them, not listed here: open its
              Memories to see them.
            </p>
          ) : null}
          {record.memory_ids.length > memoryIds.length ? (
            <p className="hint">
              Only its first {memoryReadCap} of {record.memory_ids.length} Memories were looked at: Records
              that support only the others are not listed.
            </p>
          ) : null}
          {memoriesFailed.length > 0 ? (
            <p className="notice">
              Could not list the other Records that support{' '}
              {memoriesFailed.length === memoryReads.length
                ? 'its Memories'
                : `${memoriesFailed.length} of its Memories`}{' '}
              ({errorWords(memoriesFailed[0]!.error)}). Forgetting this Record still works; those Memories are
              worked out again from any other support.
            </p>
          ) : null}
        </>
      )}
      {offered.length > 0 && !loading ? (
        <p aria-live="polite" data-testid="forget-outcome">
          <strong>
            This removes {count === 1 ? 'this Record' : `this Record and ${plural(count - 1, 'other')}`}
          </strong>
          {after.goes.length ? `, and with them ${namedMemories(after.goes)}` : ''}.
          {after.stays.length
            ? ` ${namedMemories(after.stays)} ${after.stays.length === 1 ? 'stays' : 'stay'}, resting on the Records kept.`
            : ''}
        </p>
      ) : null}
      {forget.isError ? (
        <>
          <p>Nothing was forgotten.</p>
          <ErrorNotice error={forget.error} />
        </>
      ) : null}
    </ConfirmDialog>
  );
}

/** The notice after a correction Record is forgotten says the Memory it changed is back as it was. */
const withTargetBack =
  (forgotten: boolean, target: string | null) =>
  (said: string): string =>
    forgotten && target !== null ? `${said} “${oneLine(target, 120)}” is back as it was.` : said;

const namedMemories = (labels: readonly string[]): string =>
  labels.length > 3
    ? `${plural(labels.length, 'Memory', 'Memories')}`
    : labels.map((l) => `“${oneLine(l, 80)}”`).join(', ');
