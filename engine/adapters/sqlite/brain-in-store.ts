import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openStoreReadOnly } from './open-database.ts';
import { storeFileName } from './store.ts';

/**
 * Whether the data dir's store holds a Brain of this id in this tenant, read only (also while a server
 * has the store open: a read transaction of its own, as a backup's). A data dir with no store holds no
 * Brain. Throws when the store cannot be read (another key, damaged).
 */
export function storeHasBrain(opts: {
  dataDir: string;
  /** The store's key, asked for only when there is a store. */
  key: () => string | Buffer;
  /** The Brain's project and env (a Tenant). */
  tenant: { project: string; env: string };
  brainId: string;
}): boolean {
  const file = join(opts.dataDir, storeFileName);
  if (!existsSync(file)) return false;
  const db = openStoreReadOnly(file, opts.key(), { vectors: false });
  try {
    return (
      db
        .prepare('SELECT 1 FROM brains WHERE project = ? AND env = ? AND id = ?')
        .get(opts.tenant.project, opts.tenant.env, opts.brainId) !== undefined
    );
  } finally {
    db.close();
  }
}
