/** The Brain's pairing with a hosted Mnemo: its status (read again while shown) and the changes to it. */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { SyncPairing, SyncStatus } from '../../engine/contract/index.ts';
import type { MnemoClient } from '../../server/client/index.ts';
import { useClient } from './client.ts';
import { backingOff } from './poll.ts';

const syncKey = (brainId: string) => ['sync', brainId] as const;

/** Sync runs by itself in the background: the panel reads the status every few seconds. */
export const syncStatusOptions = (client: MnemoClient, brainId: string) =>
  queryOptions({
    queryKey: syncKey(brainId),
    queryFn: ({ signal }) => client.getSync(brainId, { signal }),
    refetchInterval: backingOff(3000),
  });

/** Pairing, syncing and unpairing each answer with the new status; pulled Records change every read. */
function useSyncChange<A>(brainId: string, change: (client: MnemoClient, arg: A) => Promise<SyncStatus>) {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (arg: A) => change(client, arg),
    onSuccess: (status) => qc.setQueryData(syncKey(brainId), status),
    onSettled: () => qc.invalidateQueries({ predicate: (q) => q.queryKey.includes(brainId) }),
  });
}

export const usePairSync = (brainId: string) =>
  useSyncChange(brainId, (client, body: SyncPairing) => client.pairSync(brainId, body));
/** Sync now; `allowMore`: the pull another day's budget first (the UI's key is the admin key). */
export const useRunSync = (brainId: string) =>
  useSyncChange(brainId, (client, o: { allowMore?: boolean } | void) =>
    client.runSync(brainId, o?.allowMore ? { allowMore: true } : {}),
  );
export const useUnpairSync = (brainId: string) =>
  useSyncChange(brainId, (client, _: void) => client.unpairSync(brainId));
/** Confirms the forgets sync held (`count`: the number the panel showed) and applies them. */
export const useAcceptSyncForgets = (brainId: string) =>
  useSyncChange(brainId, (client, count: number) => client.acceptSyncForgets(brainId, count));
