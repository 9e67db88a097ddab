import { Fragment, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  chatSources,
  type DeletionReceipt,
  type SourceChat,
  type SourceSummary,
} from '../../engine/contract/index.ts';
import { useClient } from '../api/client.ts';
import { useForgetSource, useForgetSourceChat } from '../api/mutations.ts';
import { sourceChatsOptions, sourceListOptions } from '../api/queries.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { Empty, ErrorNotice, Loading, errorHidesData } from '../components/status.tsx';
import { formatDate, plural } from '../format.ts';
import { sourceItems, sourceTitle } from '../import-formats.ts';
import { TableScroll } from '../components/table-scroll.tsx';

const labelOf = sourceTitle;

function span(s: SourceSummary): string {
  const from = formatDate(s.first_occurred_at);
  const to = formatDate(s.last_occurred_at);
  return from === to ? from : `${from} – ${to}`;
}

/**
 * Imports held by the Brain (sources with reconciled Records), each removable as a whole; a WhatsApp
 * import's chats each removable alone too, as every chat is one source.
 */
export function ImportedSources({ brainId, partial }: { brainId: string; partial: boolean }) {
  const client = useClient();
  const sources = useQuery(sourceListOptions(client, brainId));
  const [removing, setRemoving] = useState<SourceSummary | null>(null);
  const [removingChat, setRemovingChat] = useState<SourceChat | null>(null);
  const [removed, setRemoved] = useState<{ receipt: DeletionReceipt; chat?: string } | null>(null);
  const imports = sources.data?.data.filter((s) => s.reconciled_records > 0) ?? [];
  return (
    <section aria-labelledby="imported">
      <h2 id="imported">What has been imported</h2>
      <p className="muted">
        Imported items cannot be forgotten one by one (they would come back with the next import); remove a
        whole import here instead, or one chat of a WhatsApp import.
      </p>
      {partial ? (
        <p className="notice">
          The last import stopped before it finished (see above), so what it brought in below may be only part
          of its files.
        </p>
      ) : null}
      {removed ? (
        <p className="notice" role="status">
          Removed{' '}
          {removed.chat === undefined
            ? `“${labelOf(removed.receipt.target.id)}”`
            : `the chat “${removed.chat}” of ${labelOf(removed.receipt.target.id)}`}
          : {plural(removed.receipt.deleted.records, 'Record')} and{' '}
          {plural(removed.receipt.deleted.memories, 'Memory', 'Memories')} forgotten
          {removed.receipt.rederiving.memories
            ? `; ${plural(removed.receipt.rederiving.memories, 'Memory', 'Memories')} that other Records also support ${removed.receipt.rederiving.memories === 1 ? 'is' : 'are'} being worked out again`
            : ''}
          .
        </p>
      ) : null}
      {sources.isPending ? (
        <Loading what="imports" />
      ) : sources.data === undefined || errorHidesData(sources) ? (
        <ErrorNotice error={sources.error} />
      ) : imports.length === 0 ? (
        <Empty title="Nothing imported yet">Choose or drop export files above.</Empty>
      ) : (
        <TableScroll label="Imports">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Import</th>
                <th scope="col">Items</th>
                <th scope="col">Covers</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {imports.map((s) => (
                <Fragment key={s.name}>
                  <tr>
                    <td className="wrap-anywhere">
                      <span className="strong">{labelOf(s.name)}</span>
                      <div className="muted mono small">{s.name}</div>
                    </td>
                    <td>
                      {sourceItems(s.name, s.items)}
                      {/* An edited note's earlier version stays a Record of it, and goes with the import. */}
                      {s.records > s.items ? (
                        <div className="muted small">{plural(s.records - s.items, 'replaced version')}</div>
                      ) : null}
                    </td>
                    <td>{span(s)}</td>
                    <td className="actions">
                      <button
                        type="button"
                        className="danger subtle"
                        onClick={() => {
                          setRemoved(null);
                          setRemoving(s);
                        }}
                      >
                        Remove this import<span className="visually-hidden"> of {labelOf(s.name)}</span>
                      </button>
                    </td>
                  </tr>
                  {chatSources.includes(s.name) ? (
                    <ChatRows
                      brainId={brainId}
                      source={s.name}
                      onRemove={(chat) => {
                        setRemoved(null);
                        setRemovingChat(chat);
                      }}
                    />
                  ) : null}
                </Fragment>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {removing ? (
        <RemoveImportDialog
          brainId={brainId}
          source={removing}
          onClose={() => setRemoving(null)}
          onRemoved={(receipt) => {
            setRemoving(null);
            setRemoved({ receipt });
          }}
        />
      ) : null}
      {removingChat ? (
        <RemoveChatDialog
          brainId={brainId}
          chat={removingChat}
          onClose={() => setRemovingChat(null)}
          onRemoved={(receipt) => {
            setRemovingChat(null);
            setRemoved({ receipt, chat: removingChat.name });
          }}
        />
      ) : null}
    </section>
  );
}

/** The chats of a chat import, a row each under its import's, each removable alone. */
function ChatRows(props: { brainId: string; source: string; onRemove: (chat: SourceChat) => void }) {
  const { brainId, source, onRemove } = props;
  const client = useClient();
  const chats = useQuery(sourceChatsOptions(client, brainId, source));
  // A failed read leaves the import's own row, whose removal still works.
  return (chats.data?.data ?? []).map((c) => (
    <tr key={c.name} className="sub-row">
      <td className="wrap-anywhere">
        <span className="muted">Chat</span> “{c.name}”
      </td>
      <td>{plural(c.messages, 'message')}</td>
      <td />
      <td className="actions">
        <button type="button" className="danger subtle" onClick={() => onRemove(c)}>
          Remove this chat<span className="visually-hidden"> “{c.name}”</span>
        </button>
      </td>
    </tr>
  ));
}

function RemoveChatDialog(props: {
  brainId: string;
  chat: SourceChat;
  onClose: () => void;
  onRemoved: (receipt: DeletionReceipt) => void;
}) {
  const { brainId, chat, onClose, onRemoved } = props;
  const forget = useForgetSourceChat(brainId);
  return (
    <ConfirmDialog
      open
      title={`Remove the chat “${chat.name}”?`}
      confirmLabel="Remove chat"
      busy={forget.isPending}
      onCancel={onClose}
      onConfirm={() => forget.mutate({ source: chat.source, chat: chat.name }, { onSuccess: onRemoved })}
    >
      <p>
        This forgets the {plural(chat.messages, 'message')} of the chat “{chat.name}” imported into this
        Brain, for good. The other chats of {labelOf(chat.source)} stay.
      </p>
      <ul>
        <li>Memories that rest only on them are removed too.</li>
        <li>Memories that other Records also support stay, and are worked out again from what remains.</li>
        <li>The files on your computer are not touched: importing the chat again brings it back.</li>
      </ul>
      {forget.isError ? <ErrorNotice error={forget.error} /> : null}
    </ConfirmDialog>
  );
}

function RemoveImportDialog(props: {
  brainId: string;
  source: SourceSummary;
  onClose: () => void;
  onRemoved: (receipt: DeletionReceipt) => void;
}) {
  const { brainId, source, onClose, onRemoved } = props;
  const forget = useForgetSource(brainId);
  return (
    <ConfirmDialog
      open
      title={`Remove the import “${labelOf(source.name)}”?`}
      confirmLabel="Remove import"
      busy={forget.isPending}
      onCancel={onClose}
      onConfirm={() => forget.mutate(source.name, { onSuccess: onRemoved })}
    >
      <p>
        This forgets all {plural(source.records, 'Record')} from “{source.name}” ({span(source)}), for good —
        everything imported under that name into this Brain, not only the last import.
      </p>
      <ul>
        <li>Memories that rest only on them are removed too.</li>
        <li>Memories that other Records also support stay, and are worked out again from what remains.</li>
        <li>The files on your computer are not touched: importing them again brings them back.</li>
      </ul>
      {forget.isError ? <ErrorNotice error={forget.error} /> : null}
    </ConfirmDialog>
  );
}
