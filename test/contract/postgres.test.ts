import { after } from 'node:test';
import { postgresStorageOver } from '../../engine/adapters/postgres/storage.ts';
import { reusedPgliteDatabases } from '../../engine/adapters/postgres/testing/pglite.ts';
import { startCluster } from '../../engine/adapters/postgres/testing/cluster.ts';
import { startServer } from '../../server/start-server.ts';
import type { ServerFactory } from './harness.ts';
import { runContractSuite } from './suite.ts';

/*
 * The contract suite against the PostgreSQL engine: on a real PostgreSQL server through
 * `--database-url` (Debian's postgresql; .ci/run installs it), with the pool and driver the hosted
 * product runs on; and on PGlite (an embedded PostgreSQL with pgvector, a database at the current
 * schema per server): the whole suite where no server can be started here, beside one only the Context
 * checks, for the semantic lane a server without pgvector (Debian's) does not run. The rest would be
 * the same checks through the same adapter a second time: ~14 CPU s of the file's ~53.
 */
const traits = {
  kinds: ['message', 'document', 'event', 'fact', 'correction'],
  unknownKindCode: 'unknown_kind' as const,
  sharesMemories: true,
  replicaIds: 'per-brain' as const,
  entityLane: true,
  timeLane: true,
  resolvesOwners: true,
  holdsSlots: true,
  rewritesQueries: true,
};

// Each server closes its database before the next starts: one PGlite, put back to the migrated state
// for each, instead of a PGlite started per server.
const database = await reusedPgliteDatabases({ vector: true, migrated: true });
const onPglite: ServerFactory = (o = {}) =>
  startServer({
    engine: 'postgres',
    port: 0,
    rateLimit: 0,
    deployment: 'local',
    openDatabase: async (kept) => postgresStorageOver(await database(), kept),
    ...o,
  });

const started = await startCluster();
if ('cluster' in started) {
  const { cluster } = started;
  after(() => cluster.stop());
  runContractSuite({ name: 'postgres', ...traits }, async (o = {}) =>
    startServer({
      engine: 'postgres',
      port: 0,
      rateLimit: 0,
      deployment: 'local',
      databaseUrl: await cluster.freshDatabase(),
      ...o,
    }),
  );
  runContractSuite({ name: 'postgres on PGlite', ...traits }, onPglite, ['context']);
} else runContractSuite({ name: 'postgres on PGlite', ...traits }, onPglite);
