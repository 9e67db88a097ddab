// Child process of backup-leftovers.test.ts: runs a real backup and, once its copy is written and
// checked, at its first fsync, is killed by SIGKILL ("die") or stops there until it is ("hang"), as a
// backup is when its machine or its user ends it midway.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { backupStore } from '../../engine/adapters/sqlite/backup-store.ts';

const [dataDir, key, out, how] = process.argv.slice(2) as [string, string, string, 'die' | 'hang'];
fs.fsyncSync = () => {
  fs.writeSync(1, 'copied\n');
  if (how === 'die') process.kill(process.pid, 'SIGKILL');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
};
// backup-store.ts imported fsyncSync by name: this makes its binding the one above.
syncBuiltinESMExports();
backupStore({ dataDir, key, out });
