import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createReferenceEngine } from '../../engine/reference/index.ts';
import type { Engine } from '../../engine/types.ts';
import { startServer } from '../start-server.ts';
import { importFiles } from './import-files.ts';
import { uploadFolderPrefix, uploadParentFor } from './upload-dir.ts';

// The embedder's worker thread is beside the point here, and slow to load.
process.env.MNEMO_EMBEDDER = 'none';

const t = { project: 'p', env: 'test' as const };
const note = (name: string, text: string) => ({ name, content_base64: Buffer.from(text).toString('base64') });

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-upload-dir-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('the uploaded files are copied under the given folder while the import reads them, and removed after', async () => {
  const parent = join(tempDir(), 'tmp');
  const engine = createReferenceEngine();
  await engine.createBrain(t, { id: 'b' });
  const seen: string[] = [];
  // Looks at the folder at the moment a Record is written, while the copies must exist.
  const watching: Engine = Object.create(engine) as Engine;
  watching.rememberRecord = (...args) => {
    for (const folder of readdirSync(parent)) seen.push(...readdirSync(join(parent, folder, 'upload')));
    return engine.rememberRecord(...args);
  };
  const result = await importFiles(watching, t, 'b', { files: [note('diary.md', 'Dear diary.\n')] }, parent);
  assert.equal(result.imported, 1);
  assert.deepEqual(seen, ['diary.md']);
  assert.equal(statSync(parent).mode & 0o777, 0o700);
  assert.deepEqual(readdirSync(parent), [], 'the copies are gone once the import returns');
});

test("a server on a data dir copies uploads into the data dir's tmp, and its start removes what a dead one left there", async () => {
  const dataDir = tempDir();
  const parent = uploadParentFor(dataDir);
  // What an import killed mid-way leaves, beside something of someone else's that must stay.
  const leftover = join(parent, `${uploadFolderPrefix}Ab12Cd`);
  mkdirSync(join(leftover, 'upload'), { recursive: true });
  writeFileSync(join(leftover, 'upload', 'secret.md'), 'my bank PIN is 9931');
  writeFileSync(join(parent, 'keep-me.txt'), 'not an upload');

  const server = await startServer({
    engine: 'local',
    port: 0,
    dataDir,
    dbKey: 'd'.repeat(64),
    timeZone: 'UTC',
  });
  after(() => server.close());
  assert.equal(existsSync(leftover), false, 'the leftover upload copy is gone');
  assert.deepEqual(readdirSync(parent), ['keep-me.txt']);

  const created: string[] = [];
  const watcher = watch(parent, (_event, name) => name && created.push(name));
  after(() => watcher.close());
  const registry = server.registry!;
  const { key } = await registry.create({ env: 'test', project: 'p' });
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  await fetch(`${server.url}/brains`, { method: 'POST', headers, body: '{"id":"b"}' });
  const res = await fetch(`${server.url}/brains/b/imports`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ files: [note('diary.md', 'Dear diary.\n')] }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  await new Promise((r) => setTimeout(r, 100)); // the watcher's events arrive on the event loop
  assert.ok(
    created.some((name) => name.startsWith(uploadFolderPrefix)),
    `the upload was copied into ${parent} (saw ${created.join(', ') || 'nothing'})`,
  );
  assert.deepEqual(readdirSync(parent), ['keep-me.txt'], 'and removed after the import');
});

test("a file where the data dir's upload folder goes: start-up says what the folder is for, and lets the dir go", async () => {
  const dataDir = tempDir();
  writeFileSync(uploadParentFor(dataDir), 'a file in the way');
  const options = { engine: 'local' as const, port: 0, dataDir, dbKey: 'd'.repeat(64), timeZone: 'UTC' };
  await assert.rejects(startServer(options), /tmp must be a folder \(Mnemo copies uploaded files there/);
  // The store was closed and the lock released: moved away, the next start works in this process.
  rmSync(uploadParentFor(dataDir));
  const server = await startServer(options);
  await server.close();
});

test("a server without a data dir removes at start what killed runs left in the system's temp folder, and only that", async () => {
  const tmp = tempDir();
  // A process that has ended: its id names no running one (the test's own parent still runs).
  const gone = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => gone.on('close', r));
  const dead = gone.pid!;
  const live = process.ppid;
  const made = (name: string) => {
    mkdirSync(join(tmp, name, 'upload'), { recursive: true });
    writeFileSync(join(tmp, name, 'upload', 'secret.md'), 'my bank PIN is 9931');
    return name;
  };
  made(`${uploadFolderPrefix}${dead}-Ab12Cd`);
  made(`mnemo-zip-${dead}-Ef34Gh`);
  made(`mnemo-zips-${dead}-Ij56Kl`);
  const kept = [
    made(`${uploadFolderPrefix}${live}-Mn78Op`), // a running import's
    made(`${uploadFolderPrefix}Qr90St`), // no process id: not known to be over
    made(`other-${dead}-Uv12Wx`),
  ].sort();
  const before = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  const logged: string[] = [];
  try {
    const server = await startServer({ engine: 'reference', port: 0, log: (l) => logged.push(l) });
    await server.close();
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
  assert.deepEqual(readdirSync(tmp).sort(), kept);
  assert.ok(
    logged.includes(`removed 3 import copy folder(s) that killed runs left in ${tmp}`),
    logged.join('\n'),
  );
});
