// For background-checkpoints.test.ts: the real checkpoint worker, whose checkpoints answer as they do on
// a full disk (SQLITE_FULL) while a file `<store>-disk-full` exists: the test fills and frees the disk
// when it chooses, not at whichever checkpoint happens to come first.
import { existsSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const post = parentPort.postMessage.bind(parentPort);
parentPort.postMessage = (m) => {
  if (m.type === 'checkpointed' && existsSync(`${workerData.file}-disk-full`)) {
    const error = 'SqliteError: database or disk is full';
    return post({ type: 'checkpointed', log: -1, checkpointed: -1, error, code: 'SQLITE_FULL' });
  }
  return post(m);
};
await import('./checkpoint-worker.mjs');
