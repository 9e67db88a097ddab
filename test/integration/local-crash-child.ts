// Child process of local-crash.test.ts: writes Records as fast as it can and prints "ack <id>" only
// after rememberRecord has returned (acknowledged). The parent SIGKILLs it mid-burst.
import { createLocalEngine } from '../../engine/local/index.ts';

const [dataDir, key, run] = process.argv.slice(2) as [string, string, string];
const tenant = { project: 'crash', env: 'test' as const };
const engine = await createLocalEngine({ dataDir, dbKey: key });
if ((await engine.listBrains(tenant)).length === 0) await engine.createBrain(tenant, { id: 'b' });
process.stdout.write('ready\n');
// Eight writes in flight at a time, as an importer or several agents send them: they share commits
// (engine/adapters/sqlite/write-batches.ts), and each is acknowledged only once its batch has committed.
const inFlight = 8;
const write = async (i: number) => {
  const body =
    i % 3 === 0
      ? { content: { kind: 'fact' as const, subject: 'counter', predicate: `p${i % 7}`, value: i } }
      : {
          content: {
            kind: 'message' as const,
            text: `Burst message ${i}. It has two sentences.`,
            speaker: 'user',
          },
        };
  const { record } = await engine.rememberRecord(tenant, 'b', body, { idempotencyKey: `${run}-${i}` });
  process.stdout.write(`ack ${record.id}\n`);
};
for (let i = 0; ; i += inFlight) {
  await Promise.all(Array.from({ length: inFlight }, (_, j) => write(i + j)));
  // Let derivation interleave with writes, as it does under a server.
  if (i % 40 === 0) await new Promise((r) => setImmediate(r));
}
