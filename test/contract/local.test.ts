import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { newStoreKey } from '../../engine/adapters/sqlite/resolve-db-key.ts';
import { startServer } from '../../server/start-server.ts';
import { runContractSuite } from './suite.ts';

const root = mkdtempSync(join(tmpdir(), 'mnemo-contract-local-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

runContractSuite(
  {
    name: 'local',
    kinds: ['message', 'document', 'event', 'fact', 'correction'],
    unknownKindCode: 'unknown_kind',
    sharesMemories: true,
    replicaIds: 'per-store',
    entityLane: true,
    timeLane: true,
    resolvesOwners: true,
    holdsSlots: true,
    rewritesQueries: true,
  },
  (o = {}) => {
    n += 1;
    const dir = join(root, `s${n}`);
    const keyFile = join(root, `s${n}.key`);
    // A key as Mnemo makes one, taken as the key itself: a passphrase costs an Argon2id derivation on
    // each of the store's connections, and the suite starts a dozen servers.
    writeFileSync(keyFile, `${newStoreKey()}\n`, { mode: 0o600 });
    return startServer({
      engine: 'local',
      port: 0,
      rateLimit: 0,
      dataDir: join(dir, 'data'),
      dbKeyFile: keyFile,
      configDir: join(dir, 'config'),
      ...o,
    });
  },
);
