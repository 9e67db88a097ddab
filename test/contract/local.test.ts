import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
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
    foldsContext: true,
  },
  (o = {}) => {
    n += 1;
    const dir = join(root, `s${n}`);
    const keyFile = join(root, `s${n}.key`);
    writeFileSync(keyFile, `contract-suite-key-${n}\n`, { mode: 0o600 });
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
