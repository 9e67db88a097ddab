// For background-checkpoints.test.ts: the real checkpoint worker, whose first `workerData.failures`
// checkpoints answer as they do on a full disk (SQLITE_FULL), as a disk that fills up and is freed.
import { parentPort, workerData } from 'node:worker_threads';

let failures = workerData.failures ?? 1;
const post = parentPort.postMessage.bind(parentPort);
parentPort.postMessage = (m) => {
  if (m.type === 'checkpointed' && failures > 0) {
    failures -= 1;
    const error = 'SqliteError: database or disk is full';
    return post({ type: 'checkpointed', log: -1, checkpointed: -1, error, code: 'SQLITE_FULL' });
  }
  return post(m);
};
await import('./checkpoint-worker.mjs');
