// Started by scripts/test.mjs: one PostgreSQL cluster for the whole test run, in which each test file
// makes and drops databases of its own (engine/adapters/postgres/testing/cluster.ts). Prints one JSON
// line: the server's URL and the command that stops it (run by scripts/test.mjs, which has no tsx), or
// why there is none (`skip`: each file then says so itself).
import { startServer } from '../engine/adapters/postgres/testing/cluster.ts';

const started = await startServer();
process.stdout.write(`${JSON.stringify(started)}\n`);
