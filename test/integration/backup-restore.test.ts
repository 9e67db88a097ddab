import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createLocalEngine } from '../../engine/local/index.ts';
import { restoreStore } from '../../engine/adapters/sqlite/backup-store.ts';
import { openStore } from '../../engine/adapters/sqlite/store.ts';
import { openDatabase } from '../../engine/adapters/sqlite/open-database.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { serveLocal } from './serve-local.ts';
import { tenant } from './local-helpers.ts';

// `mnemo backup` and `mnemo restore` as a person runs them: a real server on loopback with the local
// engine on an encrypted SQLite file, and the command in another process.
const root = mkdtempSync(join(tmpdir(), 'mnemo-backup-'));
after(() => rmSync(root, { recursive: true, force: true }));
const keyFile = join(root, 'db.key');
writeFileSync(keyFile, 'backup-test-key\n', { mode: 0o600 });
const marker = 'Zanzibar-lighthouse-7731';

/**
 * The command, run while this process's event loop goes on: the servers these tests start run in this
 * process, and a loop held through a slow start (a loaded machine) let a kept-alive connection's
 * timeout close it under the next request, which then failed with ECONNRESET.
 */
function mnemo(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  // No MNEMO_DB_KEY from the environment: the key is the file named on the command line.
  const env = { ...process.env, MNEMO_DB_KEY: '', XDG_CONFIG_HOME: join(root, 'config') };
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['bin/mnemo.mjs', ...args],
      { encoding: 'utf8', timeout: 60_000, env },
      (error, stdout, stderr) =>
        done({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

async function serve(dataDir: string) {
  const { server, auth } = await serveLocal(root, { dataDir, keyFile });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: auth,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { server, call };
}

const remember = (text: string) => ({ content: { kind: 'message', speaker: 'user', text } });

async function recordTexts(call: Awaited<ReturnType<typeof serve>>['call']): Promise<string[]> {
  const page = await call('GET', '/brains/life/records?limit=50');
  assert.equal(page.status, 200, JSON.stringify(page.body));
  return (page.body.data as { content: { text: string } }[]).map((r) => r.content.text).sort();
}

describe('mnemo backup and mnemo restore', () => {
  const dataDir = join(root, 'data');
  const backup = join(root, 'life.mnemo-backup');
  let running: RunningServer | null = null;
  after(async () => running?.close());

  it('backs up a store a server is using, encrypted, consistent, and never over a file', async () => {
    const { server, call } = await serve(dataDir);
    running = server;
    assert.equal((await call('POST', '/brains', { id: 'life' })).status, 201);
    for (const text of [`My locker code is ${marker}.`, 'I like green tea.'])
      assert.equal((await call('POST', '/brains/life/records', remember(text))).status, 202);
    await server.engine.idle();

    const r = await mnemo('backup', '--data-dir', dataDir, '--db-key-file', keyFile, '--out', backup);
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stdout,
      /^backed up 1 Brain, 2 Records, 2 Memories to .*life\.mnemo-backup \([\d.]+ MB, encrypted/,
    );
    const bytes = readFileSync(backup);
    assert.ok(!bytes.includes(marker), 'no plaintext in the backup');
    assert.ok(!bytes.subarray(0, 16).toString('latin1').startsWith('SQLite format 3'));
    if (process.platform !== 'win32') assert.equal(statSync(backup).mode & 0o777, 0o600);
    assert.deepEqual(
      readdirSync(root).filter((f) => f.includes('partial')),
      [],
      'no draft left behind',
    );

    // Written after the backup: not in it.
    assert.equal((await call('POST', '/brains/life/records', remember('I moved the bike.'))).status, 202);
    await server.engine.idle();

    const again = await mnemo('backup', '--data-dir', dataDir, '--db-key-file', keyFile, '--out', backup);
    assert.equal(again.status, 1);
    assert.match(again.stderr, /exists already: a backup never overwrites a file/);
    assert.deepEqual(readFileSync(backup), bytes, 'the first backup is untouched');

    const wrongKey = join(root, 'wrong.key');
    writeFileSync(wrongKey, 'not-the-key\n', { mode: 0o600 });
    const refused = await mnemo(
      'backup',
      '--data-dir',
      dataDir,
      '--db-key-file',
      wrongKey,
      '--out',
      join(root, 'x'),
    );
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /the database key is wrong/);
    assert.ok(!existsSync(join(root, 'x')));

    const noKey = await mnemo('backup', '--data-dir', dataDir, '--out', join(root, 'y'));
    assert.equal(noKey.status, 1);
    assert.match(noKey.stderr, /no database key for the store .*mnemo.db: its key is not in/);
    assert.ok(!existsSync(join(root, 'config', 'mnemo', 'db.key')), 'no new key was made up for it');
  });

  it('refuses to restore over a store a server is using, and changes nothing', async () => {
    const before = readFileSync(join(dataDir, 'mnemo.db'));
    const r = await mnemo('restore', '--data-dir', dataDir, '--db-key-file', keyFile, '--from', backup);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /in use|another process/i);
    assert.deepEqual(readFileSync(join(dataDir, 'mnemo.db')), before);
  });

  it('restores into a new data dir: the server there serves what the backup held', async () => {
    await running!.close();
    running = null;
    const fresh = join(root, 'elsewhere');
    const r = await mnemo('restore', '--data-dir', fresh, '--db-key-file', keyFile, '--from', backup);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^restored 1 Brain, 2 Records, 2 Memories from /);
    assert.doesNotMatch(r.stdout, /replaced/);
    // serve looks in the config dir for its key unless told: the restore says which key it needs.
    assert.ok(r.stderr.includes(`start mnemo serve with --db-key-file ${keyFile} too`), r.stderr);
    const { server, call } = await serve(fresh);
    try {
      assert.deepEqual(await recordTexts(call), ['I like green tea.', `My locker code is ${marker}.`]);
      const ctx = await call('POST', '/brains/life/context', { query: 'locker code' });
      assert.equal(ctx.status, 200);
      assert.match(JSON.stringify(ctx.body.citations), new RegExp(marker));
    } finally {
      await server.close();
    }
  });

  it('restores over a stopped store, keeping the one it replaced beside it', async () => {
    const r = await mnemo('restore', '--data-dir', dataDir, '--db-key-file', keyFile, '--from', backup);
    assert.equal(r.status, 0, r.stderr);
    const replaced = /the store it replaced is at (\S+)\n$/.exec(r.stdout)?.[1];
    assert.ok(replaced && existsSync(replaced), r.stdout);
    const { server, call } = await serve(dataDir);
    try {
      assert.deepEqual(await recordTexts(call), ['I like green tea.', `My locker code is ${marker}.`]);
    } finally {
      await server.close();
    }
    // The replaced store still opens and holds the Record written after the backup.
    const moved = join(root, 'moved');
    const back = await mnemo('restore', '--data-dir', moved, '--db-key-file', keyFile, '--from', replaced!);
    assert.equal(back.status, 0, back.stderr);
    assert.match(back.stdout, /3 Records/);
  });

  it('refuses a file that is not a Mnemo store, or one read with another key, and leaves the store', async () => {
    const junk = join(root, 'junk.bin');
    writeFileSync(junk, 'just some text, not a database at all');
    const before = readFileSync(join(dataDir, 'mnemo.db'));
    const r = await mnemo('restore', '--data-dir', dataDir, '--db-key-file', keyFile, '--from', junk);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /key is wrong \(or the file is not a Mnemo database\)/);
    const wrongKey = join(root, 'wrong.key');
    const w = await mnemo('restore', '--data-dir', dataDir, '--db-key-file', wrongKey, '--from', backup);
    assert.equal(w.status, 1);
    assert.deepEqual(readFileSync(join(dataDir, 'mnemo.db')), before, 'the store is as it was');
    assert.equal(readdirSync(dataDir).filter((f) => f.includes('restoring')).length, 0);
  });

  it('a failed restore into a new data dir leaves no dir behind, and names a cut-off backup', async () => {
    const fresh = join(root, 'never-made');
    const junk = join(root, 'junk-again.bin');
    writeFileSync(junk, 'not a database');
    const r = await mnemo('restore', '--data-dir', fresh, '--db-key-file', keyFile, '--from', junk);
    assert.equal(r.status, 1);
    assert.equal(existsSync(fresh), false, 'no data dir (nor lock file) left by the refusal');
    // A backup cut off part way (a copy that did not finish): the message names the file.
    const cut = join(root, 'cut.mnemo-backup');
    writeFileSync(cut, readFileSync(backup).subarray(0, 20_000));
    const c = await mnemo('restore', '--data-dir', fresh, '--db-key-file', keyFile, '--from', cut);
    assert.equal(c.status, 1);
    assert.ok(c.stderr.includes(cut), c.stderr);
    assert.equal(existsSync(fresh), false);
  });

  it('a damaged store: backup and the engine refuse it naming it and the way back, and leave it', async () => {
    const damaged = join(root, 'damaged');
    assert.equal(
      (await mnemo('restore', '--data-dir', damaged, '--db-key-file', keyFile, '--from', backup)).status,
      0,
    );
    const store = join(damaged, 'mnemo.db');
    // Cut off after its first pages, as a disk or a copy that failed part way leaves it.
    writeFileSync(store, readFileSync(store).subarray(0, 8192));
    const before = readFileSync(store);
    const says = new RegExp(
      `the Mnemo store ${store.replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is damaged .*mnemo restore --from FILE`,
    );
    const out = join(root, 'of-damaged.mnemo-backup');
    const r = await mnemo('backup', '--data-dir', damaged, '--db-key-file', keyFile, '--out', out);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /no backup was written/);
    assert.match(r.stderr, says);
    assert.equal(existsSync(out), false);
    await assert.rejects(createLocalEngine({ dataDir: damaged, dbKey: 'backup-test-key' }), says);
    assert.deepEqual(readFileSync(store), before, 'the damaged store is as it was');
  });
});

describe('restoreStore', () => {
  const key = 'restore-test-key';
  const said = (text: string) => ({ content: { kind: 'message' as const, speaker: 'user', text } });

  it('restores what a WAL beside the file holds, refuses watermarks of before, and moves a stray WAL aside', async () => {
    const live = join(root, 'live');
    const engine = await createLocalEngine({ dataDir: live, dbKey: key });
    let mark: string;
    try {
      const brain = await engine.createBrain(tenant, { id: 'life' });
      for (const text of ['I keep bees.', 'The hive is blue.'])
        await engine.rememberRecord(tenant, 'life', said(text), {});
      await engine.idle();
      mark = (await engine.listMemories(tenant, 'life', { limit: 10, since_watermark: brain.watermark }))
        .watermark!;
      assert.ok(readFileSync(join(live, 'mnemo.db-wal')).length > 0, 'the writes are in the WAL still');

      // The data dir a person restores into has only a WAL left of its store (the file was deleted).
      const target = join(root, 'stray');
      mkdirSync(target, { recursive: true });
      writeFileSync(join(target, 'mnemo.db-wal'), 'a WAL of some other store');
      // Restoring the live store's file while it runs, as a crashed server would leave it.
      const restored = restoreStore({ dataDir: target, key, from: join(live, 'mnemo.db') });
      assert.deepEqual([restored.brains, restored.records], [1, 2]);
      assert.ok(restored.replaced && existsSync(`${restored.replaced}-wal`), 'the stray WAL moved aside');

      const back = await createLocalEngine({ dataDir: target, dbKey: key });
      try {
        const page = await back.listRecords(tenant, 'life', { limit: 10 });
        assert.equal(page.data.length, 2, 'what the WAL held came with the file');
        await assert.rejects(
          back.listMemories(tenant, 'life', { limit: 10, since_watermark: mark }),
          {
            code: 'invalid_watermark',
            message: /before its store was restored\): leave it out and read afresh$/,
          },
          'a watermark from the store as it went on after the backup names steps the restored one reuses',
        );
      } finally {
        await back.close();
      }
    } finally {
      await engine.close();
    }
  });

  it('keeps the secret device sync keys pseudonyms by, while watermarks get a new one', async () => {
    const secrets = (dataDir: string) => {
      const store = openStore({ dataDir, key });
      try {
        return {
          watermark: store.watermarkSecret.toString('hex'),
          device: store.deviceSecret.toString('hex'),
        };
      } finally {
        store.close();
      }
    };
    for (const made of ['now', 'before the device had a secret of its own'] as const) {
      const live = join(root, `pseudonyms-${made.length}`);
      await (await createLocalEngine({ dataDir: live, dbKey: key })).close();
      const before = secrets(live);
      // Its pseudonyms were keyed by the watermark's secret, which the device's starts as.
      assert.equal(before.device, before.watermark);
      if (made !== 'now') {
        const db = openDatabase({ file: join(live, 'mnemo.db'), key });
        try {
          db.exec("DELETE FROM meta WHERE key = 'device_secret'");
        } finally {
          db.close();
        }
      }
      const target = join(root, `pseudonyms-${made.length}-restored`);
      restoreStore({ dataDir: target, key, from: join(live, 'mnemo.db') });
      const after = secrets(target);
      assert.notEqual(after.watermark, before.watermark, made);
      assert.equal(after.device, before.device, `${made}: a person's pseudonym on the hub stays the same`);
    }
  });
});
