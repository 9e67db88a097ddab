import { useEffect, useRef, useState } from 'react';
import { useSelfName } from '../api/self-name.ts';
import { useQuery } from '@tanstack/react-query';
import type { MnemoRecord } from '../../engine/contract/index.ts';
import { isMnemoApiError } from '../../server/client/index.ts';
import { useClient } from '../api/client.ts';
import { recordPageOptions } from '../api/queries.ts';
import { ClampedText } from '../components/clamped-text.tsx';
import { ErrorNotice, Loading, errorHidesData } from '../components/status.tsx';
import { crumbWords, formatDateTime, oneLine } from '../format.ts';
import { kindLabels, mailSubject, recordSummary, speakerLabel, visibilityLabels } from '../record-text.ts';
import { Link } from '../router.tsx';
import { paths } from '../routes.ts';
import { ForgetRecordDialog } from './forget-record-dialog.tsx';
import { CorrectionLine, MemoryLinks, happenedAt } from './records.tsx';
import { useCorrectedMemory } from '../api/corrected-memory.ts';

/**
 * One Record, opened from a Memory's evidence (or any link to it): its words whole, where and when it
 * came from, the Memories worked out from it, and Forget. Read again when the Brain changes, so a
 * Record forgotten elsewhere (an agent, another window) leaves the screen.
 */
export function RecordScreen({ brainId, recordId }: { brainId: string; recordId: string }) {
  const client = useClient();
  const record = useQuery(recordPageOptions(client, brainId, recordId));
  // What this page's own forget did, said once the Record is gone.
  const [forgotten, setForgotten] = useState<string | null>(null);
  const gone = isMnemoApiError(record.error) && record.error.code === 'record_not_found';
  const shownGone = !record.isPending && (record.data === undefined || errorHidesData(record));
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // The forget's dialog gives focus back to its opener, which this page removes once the Record is
    // gone (sooner or later than the dialog closes): focus left on nothing goes to the heading.
    const now = document.activeElement;
    if (forgotten && shownGone && (!now || now === document.body)) heading.current?.focus();
  }, [forgotten, shownGone]);
  if (record.isPending) return <Loading what="this Record" />;
  if (shownGone)
    return (
      <>
        <h1 tabIndex={-1} ref={heading}>
          {forgotten ? 'Record forgotten' : gone ? 'This Record is not in this Brain' : 'Record'}
        </h1>
        <div role="status">{forgotten ? <p className="notice">{forgotten}</p> : null}</div>
        {gone ? (
          forgotten ? null : (
            <>
              <p className="lead">
                No Record here has the id <code>{recordId}</code>. Either the address is mistyped or cut
                short, or the Record was forgotten, which removes it for good.
              </p>
              <p className="error-meta">
                Code <code>record_not_found</code>
              </p>
            </>
          )
        ) : (
          <ErrorNotice error={record.error} />
        )}
        <p>
          <Link to={paths.brain(brainId, 'records')}>Back to Records</Link>
        </p>
      </>
    );
  return <RecordView brainId={brainId} r={record.data} onForgotten={setForgotten} />;
}

function RecordView({
  brainId,
  r,
  onForgotten,
}: {
  brainId: string;
  r: MnemoRecord;
  onForgotten: (said: string) => void;
}) {
  const [forgetting, setForgetting] = useState(false);
  const selfName = useSelfName(brainId);
  const c = r.content;
  const subject = mailSubject(c);
  const words =
    (c.kind === 'document' && c.title) || (c.kind === 'message' && subject !== null)
      ? c.text
      : recordSummary(c, selfName);
  // A title names the Record (a mail's subject is its title); without one its first words do, and the
  // whole text follows.
  const corrected = useCorrectedMemory(
    brainId,
    c.kind === 'correction' && !r.correction_outcome ? c.corrects : null,
  );
  const title =
    c.kind === 'correction'
      ? c.statement !== undefined
        ? corrected === null
          ? 'Correction'
          : `Correction of “${corrected}”`
        : `Withdrawal of ${corrected === null ? 'a Memory' : `“${corrected}”`}`
      : (c.kind === 'document' || c.kind === 'event' ? c.title : undefined) ||
        subject ||
        oneLine(recordSummary(c, selfName), 100);
  const happened = happenedAt(r);
  return (
    <>
      <p className="crumbs">
        {/* The Record by its title or first words, as the list names it; its id on hover and under Id. */}
        <Link to={paths.brain(brainId, 'records')}>Records</Link> /{' '}
        <span dir="auto" title={r.id}>
          {crumbWords(title)}
        </span>
      </p>
      <h1 tabIndex={-1} className="statement" dir="auto">
        {title}
      </h1>
      {c.kind === 'correction' ? (
        <p className="record-line">
          <CorrectionLine brainId={brainId} content={c} outcome={r.correction_outcome} />
        </p>
      ) : words !== title ? (
        <blockquote className="quote record-text" dir="auto">
          <ClampedText text={words} limit={4000} />
        </blockquote>
      ) : null}
      <dl className="facts">
        <dt>Kind</dt>
        <dd>{kindLabels[r.kind]}</dd>
        {c.kind === 'message' && c.speaker ? (
          <>
            <dt>Said by</dt>
            <dd dir="auto">{speakerLabel(c.speaker)}</dd>
          </>
        ) : null}
        {c.kind === 'message' && c.thread ? (
          <>
            <dt>Conversation</dt>
            <dd dir="auto">{c.thread}</dd>
          </>
        ) : null}
        {c.kind === 'fact' ? (
          // The fact as it is kept, beside the sentence above that words it.
          <>
            <dt>Subject</dt>
            <dd dir="auto">{c.subject}</dd>
            <dt>Predicate</dt>
            <dd dir="auto">{c.predicate}</dd>
            <dt>Value</dt>
            <dd dir="auto">{String(c.value)}</dd>
          </>
        ) : null}
        {c.kind === 'event' && c.participants?.length ? (
          <>
            <dt>Who</dt>
            <dd dir="auto">{c.participants.join(', ')}</dd>
          </>
        ) : null}
        <dt>Written</dt>
        <dd>{formatDateTime(r.created_at)}</dd>
        {happened !== null ? (
          <>
            <dt>Happened</dt>
            <dd>{happened}</dd>
          </>
        ) : null}
        <dt>Source</dt>
        <dd dir="auto">
          {r.source.name ?? 'not named'}
          {r.source.trust ? <span className="muted"> · trust {r.source.trust}</span> : null}
        </dd>
        <dt>Visibility</dt>
        <dd>{visibilityLabels[r.visibility]}</dd>
        <dt>Status</dt>
        <dd>{r.status === 'processing' ? 'Being worked into Memories' : 'Ready'}</dd>
        <dt>Memories</dt>
        <dd>
          <MemoryLinks brainId={brainId} ids={r.memory_ids} read />
        </dd>
        <dt>Id</dt>
        <dd className="mono wrap-anywhere">{r.id}</dd>
      </dl>
      {r.erasable ? (
        <p>
          <button type="button" className="danger subtle" onClick={() => setForgetting(true)}>
            Forget this Record
          </button>
        </p>
      ) : (
        <p className="muted">
          Imported: <Link to={paths.brain(brainId, 'import')}>remove the whole import</Link> to forget it.
        </p>
      )}
      {forgetting ? (
        <ForgetRecordDialog
          brainId={brainId}
          record={r}
          onClose={() => setForgetting(false)}
          onForgotten={(said) => {
            setForgetting(false);
            onForgotten(said);
          }}
        />
      ) : null}
    </>
  );
}
