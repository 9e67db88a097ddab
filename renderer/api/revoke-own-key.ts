import { useMutation } from '@tanstack/react-query';
import { lastRequest, useClient } from './client.ts';
import { endSession } from './session.ts';

/**
 * Revokes the key this window runs on, then signs the window out by loading the sign-in screen afresh.
 * Not the shared revoke mutation: its refetch of the key list would already go out on the revoked key
 * and land the window on a 401 instead.
 */
export function useRevokeOwnKey() {
  const client = useClient();
  return useMutation({
    mutationFn: (keyId: string) => lastRequest(client, (c) => c.revokeKey(keyId)),
    onSuccess: () => endSession('own-key-revoked'),
  });
}
