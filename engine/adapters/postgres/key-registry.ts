import { hashKey, parseApiKey } from '../../auth/api-key.ts';
import { mintKey } from '../../auth/key-registry.ts';
import type { KeyRecord, KeyRegistryPort } from '../../ports/index.ts';
import { MnemoError } from '../../errors/mnemo-error.ts';
import type { PgClient } from './client.ts';
import { overloaded, unreachable } from './store-failure.ts';
import { currentEpoch, waitForWatchers, type KeyWatch } from './key-watch.ts';

const columns = 'id, hash, prefix, last4, scopes, brain, label, admin, created_at, revoked_at';

/**
 * The API keys in the database, shared by every process on it. Only hashes are stored. A server's
 * registry keeps the keys it has looked up (`watch`, key-watch.ts); a revoke returns only once every
 * such copy has dropped the key, so the next lookup of any process refuses it.
 */
export function pgKeyRegistry(client: PgClient, options: { watch?: KeyWatch } = {}): KeyRegistryPort {
  const read = async (hash: string) => {
    try {
      return (
        (await client.query<KeyRecord>(`SELECT ${columns} FROM api_keys WHERE hash = $1`, [hash])).rows[0] ??
        null
      );
    } catch (e) {
      // The spec's code for a registry that cannot be read; its message goes to unauthenticated callers
      // too, so it names no address, and the cause rides along for the server's log.
      const why = unreachable(e)
        ? 'the database cannot be reached now (down, restarting or failing over)'
        : overloaded(e)
          ? 'the database is overloaded now (every connection is busy, or it is out of resources)'
          : null;
      if (why === null) throw e;
      const err = new MnemoError('key_registry_unreadable', `The key registry could not be read: ${why}.`);
      err.cause = e;
      throw err;
    }
  };
  const { watch } = options;
  return {
    // Revoked keys too: a server answers key_revoked for one, not invalid_api_key.
    byHash: (hash) => (watch ? watch.lookup(hash, () => read(hash)) : read(hash)),
    list: async () =>
      (await client.query<KeyRecord>(`SELECT ${columns} FROM api_keys ORDER BY created_at, id COLLATE "C"`))
        .rows,
    async create(spec) {
      const { key, entry } = mintKey(spec);
      const made = await client.query<KeyRecord>(
        `INSERT INTO api_keys (${columns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${columns}`,
        [
          entry.id,
          entry.hash,
          entry.prefix,
          entry.last4,
          entry.scopes,
          entry.brain,
          entry.label,
          entry.admin,
          entry.created_at,
          entry.revoked_at,
        ],
      );
      return { key, record: made.rows[0]! };
    },
    async revoke(idOrKey, visible = () => true) {
      const done = await client.transaction(async (tx) => {
        const hash = parseApiKey(idOrKey) ? hashKey(idOrKey) : null;
        const found = (
          await tx.query<KeyRecord>(`SELECT ${columns} FROM api_keys WHERE id = $1 OR hash = $2 FOR UPDATE`, [
            idOrKey,
            hash,
          ])
        ).rows[0];
        if (!found || !visible(found)) return null;
        const record = found.revoked_at
          ? found
          : (
              await tx.query<KeyRecord>(
                `UPDATE api_keys SET revoked_at = $2 WHERE id = $1 RETURNING ${columns}`,
                [found.id, new Date().toISOString()],
              )
            ).rows[0]!;
        // The epoch the revoke made (api_keys' trigger), read after the row lock: a key revoked already
        // waits too, as that revoke may still be waiting, or its caller gave up waiting.
        return { record, epoch: await currentEpoch(tx) };
      });
      if (done) await waitForWatchers(client, done.epoch);
      return done?.record ?? null;
    },
  };
}
