// The store's background checkpointer (background-checkpoints.ts): a connection of its own in a worker
// thread, which copies the WAL into the main file while the event loop serves requests. Plain
// JavaScript, so the thread starts without a TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3-multiple-ciphers';

const { file, keyPragmas, nativeBinding } = workerData;
const db = new Database(file, { fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
try {
  for (const pragma of keyPragmas) db.pragma(pragma);
  // The main file is synced after each checkpoint, before the WAL may be restarted over what it held.
  db.pragma('synchronous = FULL');
  // PASSIVE never waits for readers or writers; the first read proves the key.
  db.prepare('SELECT count(*) FROM sqlite_master').get();
  parentPort.postMessage({ type: 'ready' });
} catch (e) {
  db.close();
  parentPort.postMessage({ type: 'failed', message: String(e) });
  process.exit(0);
}

parentPort.on('message', (m) => {
  if (m.type === 'checkpoint') {
    try {
      const [r] = db.pragma('wal_checkpoint(PASSIVE)');
      parentPort.postMessage({ type: 'checkpointed', log: r.log, checkpointed: r.checkpointed });
    } catch (e) {
      // Another checkpoint running (a forget's TRUNCATE) is a reason to try later, not a failure.
      const code = String(e?.code ?? '');
      parentPort.postMessage({
        type: 'checkpointed',
        log: -1,
        checkpointed: -1,
        busy: code.startsWith('SQLITE_BUSY'),
        error: code.startsWith('SQLITE_BUSY') ? null : String(e),
        // A full or failing disk passes; the store says which.
        code,
      });
    }
  } else if (m.type === 'close') {
    db.close();
    // Said before the thread winds down: the store may close as soon as this connection has.
    parentPort.postMessage({ type: 'closed' });
    parentPort.close();
  }
});
