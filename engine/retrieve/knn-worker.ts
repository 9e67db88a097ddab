import { parentPort, workerData } from 'node:worker_threads';
import type { Statement } from 'better-sqlite3-multiple-ciphers';
import { openDatabase } from '../store/open-database.ts';
import type { KnnReply, KnnRequest, KnnThreadOptions } from './knn-thread.ts';
import { errorMessage } from '../shared/error-message.ts';

const port = parentPort!;
const opts = workerData as KnnThreadOptions;
// A second connection to the same encrypted file (WAL: it reads the last committed state while the
// main connection writes). It only ever reads vec0 tables.
// A Buffer key arrives as a plain Uint8Array (structured clone).
const db = openDatabase({
  file: opts.file,
  key: typeof opts.key === 'string' || opts.key === null ? opts.key : Buffer.from(opts.key),
});
const statements = new Map<string, Statement>();
port.postMessage({ type: 'ready' } satisfies KnnReply);

/** Table names come from the engine (vec8_record_<id> / vec8_memory_<id>), never from a request body. */
const tableName = /^vec8?_(record|memory)_\d+$/;

port.on('message', (msg: KnnRequest) => {
  if (msg.type === 'close') {
    db.close();
    port.close();
    return;
  }
  try {
    if (!tableName.test(msg.table)) throw new Error(`not a vector table: ${msg.table}`);
    const sql = `SELECT rowid AS n, distance AS l2 FROM ${msg.table} WHERE embedding MATCH vec_int8(?) AND k = ? AND brain_uid = ?`;
    let st = statements.get(sql);
    if (!st) {
      st = db.prepare(sql);
      statements.set(sql, st);
    }
    const rows = st.all(Buffer.from(msg.vector), msg.k, msg.brainUid) as Array<{ n: number; l2: number }>;
    port.postMessage({ type: 'result', id: msg.id, rows } satisfies KnnReply);
  } catch (e) {
    port.postMessage({
      type: 'error',
      id: msg.id,
      message: errorMessage(e),
    } satisfies KnnReply);
  }
});
