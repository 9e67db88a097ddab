/**
 * Reads of single Records gathered into one listRecords by `ids` (additive) per turn of the event
 * loop: a Trace names dozens of Records, and each read alone was a request of its own. Without React,
 * so tests run it in Node.
 */
import { maxListedIds, type MnemoRecord } from '../../engine/contract/index.ts';
import { MnemoApiError, isMnemoApiError, type MnemoClient } from '../../server/client/index.ts';

type Waiter = { resolve: (r: MnemoRecord) => void; reject: (e: unknown) => void };

/**
 * A read of one Record that waits for the others asked for in the same turn and reads them together
 * with `readMany` (at most maxListedIds at a time). An id the answer leaves out is `record_not_found`,
 * as getRecord would say. Where `readMany` is refused as a bad request (a server from before `ids`,
 * which takes it for an unknown parameter), each Record of that read is read alone with `readOne`.
 */
export function recordBatcher(
  readMany: (ids: string[]) => Promise<MnemoRecord[]>,
  readOne: (id: string) => Promise<MnemoRecord>,
): (id: string) => Promise<MnemoRecord> {
  let waiting = new Map<string, Waiter[]>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const settle = (batch: Map<string, Waiter[]>, id: string, read: Promise<MnemoRecord>) =>
    read.then(
      (r) => batch.get(id)!.forEach((w) => w.resolve(r)),
      (e: unknown) => batch.get(id)!.forEach((w) => w.reject(e)),
    );
  const flush = () => {
    const batch = waiting;
    waiting = new Map();
    timer = null;
    const ids = [...batch.keys()];
    for (let i = 0; i < ids.length; i += maxListedIds) {
      const chunk = ids.slice(i, i + maxListedIds);
      readMany(chunk).then(
        (records) => {
          const byId = new Map(records.map((r) => [r.id, r]));
          for (const id of chunk) {
            const r = byId.get(id);
            void settle(batch, id, r ? Promise.resolve(r) : Promise.reject(notFound(id)));
          }
        },
        (e: unknown) => {
          const refused = isMnemoApiError(e) && e.code === 'invalid_request_body';
          for (const id of chunk) void settle(batch, id, refused ? readOne(id) : Promise.reject(e));
        },
      );
    }
  };
  return (id) =>
    new Promise<MnemoRecord>((resolve, reject) => {
      const list = waiting.get(id);
      if (list) list.push({ resolve, reject });
      else waiting.set(id, [{ resolve, reject }]);
      timer ??= setTimeout(flush, 0);
    });
}

const notFound = (id: string) =>
  new MnemoApiError(404, {
    type: 'not_found',
    code: 'record_not_found',
    message: `record_id: no Record "${id}" in this Brain`,
  });

const batchers = new WeakMap<MnemoClient, Map<string, (id: string) => Promise<MnemoRecord>>>();

/** The batched read of a Brain's Records through `client`, one per client and Brain. */
export function batchedRecordRead(
  client: MnemoClient,
  brainId: string,
): (id: string) => Promise<MnemoRecord> {
  let byBrain = batchers.get(client);
  if (!byBrain) batchers.set(client, (byBrain = new Map()));
  let read = byBrain.get(brainId);
  if (!read) {
    read = recordBatcher(
      async (ids) => (await client.listRecords(brainId, { ids: ids.join(','), limit: ids.length })).data,
      (id) => client.getRecord(brainId, id),
    );
    byBrain.set(brainId, read);
  }
  return read;
}
