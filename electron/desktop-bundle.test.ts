// The bundle Electron runs (dist/electron): it builds, it needs no tsx, and its server part starts
// under plain Node and serves /v1 and the UI from the bundled code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { builtinModules } from 'node:module';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { defaultCacheDir } from '../engine/embed/cache-dir.ts';
import { closeGloveTable, defaultGlovePath } from '../engine/embed/glove-table.ts';
import { cacheBase, loadWordTable, prebuiltName, tableFiles } from '../engine/embed/word-table.ts';
import { wordTableResource } from './desktop-server.ts';

const root = join(import.meta.dirname, '..');
const build = (await import(new URL('../scripts/build-electron.mjs', import.meta.url).href)) as {
  buildDesktopBundle: (outDir: string) => Promise<Record<string, string[]>>;
  externalPackages: string[];
  neverLoaded: string[];
  bundleEntries: Record<string, string>;
  bundleCopies: Record<string, string>;
  preloadBundle: string;
};

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

// Inside dist/ so the bundle finds node_modules and dist/renderer as dist/electron does.
const outDir = mkdtempSync(join(root, 'dist', 'electron-check-'));
let loads: Record<string, string[]> = {};
test.before(async () => {
  loads = await build.buildDesktopBundle(outDir);
});
test.after(() => rmSync(outDir, { recursive: true, force: true }));

test('the bundle builds, needs no tsx or TypeScript, and imports only Node and the external packages', async () => {
  const files = [
    ...Object.keys(build.bundleEntries),
    ...Object.keys(build.bundleCopies),
    build.preloadBundle,
  ];
  for (const f of files) assert.ok(existsSync(join(outDir, f)), `${f} is built`);
  const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
  for (const f of [...Object.keys(build.bundleEntries), build.preloadBundle]) {
    assert.ok(loads[f], `${f} is an output of the build`);
    for (const spec of loads[f]!) {
      assert.ok(!spec.endsWith('.ts') && packageOf(spec) !== 'tsx', `${f} loads ${spec}`);
      if (builtins.has(spec) || spec.startsWith('node:')) continue;
      assert.ok(
        build.externalPackages.includes(packageOf(spec)) || build.neverLoaded.includes(spec),
        `${f} imports ${spec}, which is not external`,
      );
    }
  }
  const main = readFileSync(join(outDir, 'main.mjs'), 'utf8');
  assert.ok(loads['main.mjs']!.includes('electron'), 'the shell is in main.mjs');
  for (const native of ['better-sqlite3-multiple-ciphers', 'sqlite-vec'])
    assert.ok(loads['main.mjs']!.includes(native), `${native} stays external`);
  assert.ok(loads['embed-worker-entry.mjs']!.includes('onnxruntime-node'), 'onnxruntime stays external');
  assert.deepEqual(loads['checkpoint-worker.mjs'], [
    'node:worker_threads',
    'better-sqlite3-multiple-ciphers',
  ]);
  assert.doesNotMatch(main, /\bfrom\s*"tsx|\bimport\("tsx|\brequire\("tsx/, 'nothing loads tsx');
  // The engine finds these beside its own module, which in the bundle is main.mjs.
  assert.match(main, /new URL\("\.\/embed-worker-entry\.mjs", import\.meta\.url\)/);
  assert.match(main, /new URL\("\.\/derive-thread-entry\.mjs", import\.meta\.url\)/);
  assert.match(main, /new URL\("\.\/reranker-model\.json", import\.meta\.url\)/);
  assert.match(main, /new URL\("\.\/checkpoint-worker\.mjs", import\.meta\.url\)/);
  assert.deepEqual(loads[build.preloadBundle], ['electron'], 'the sandboxed preload requires only electron');
});

/**
 * A packaged app's resources: its word-vector table (what scripts/build-word-table.mjs writes, byte for
 * byte the cache a first start keeps, so copied from this checkout's cache).
 */
function resourcesIn(dir: string): string {
  const cached = tableFiles(cacheBase(defaultCacheDir(), statSync(defaultGlovePath()).size), true);
  if (!existsSync(cached.common)) closeGloveTable(loadWordTable({ cacheDir: defaultCacheDir() }).table);
  const resources = join(dir, 'resources');
  const shipped = tableFiles(join(resources, wordTableResource, prebuiltName), false);
  mkdirSync(join(resources, wordTableResource), { recursive: true });
  for (const side of ['table', 'index', 'common'] as const) copyFileSync(cached[side], shipped[side]);
  return resources;
}

test("the bundle's server starts under Node and serves /v1, the UI and a Brain's Context", async (t) => {
  const userData = mkdtempSync(join(tmpdir(), 'mnemo-bundle-'));
  t.after(() => rmSync(userData, { recursive: true, force: true }));
  // As packaged: the table from its resources, and a cache directory it never needs to write.
  const resources = resourcesIn(userData);
  const cacheDir = join(userData, 'cache');
  const child = spawn(process.execPath, [join(outDir, 'serve-without-electron.mjs'), userData, resources], {
    env: {
      ...process.env,
      MNEMO_DB_KEY: 'b'.repeat(64),
      MNEMO_LOG: 'silent',
      MNEMO_CACHE_DIR: cacheDir,
      NODE_OPTIONS: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });

  const lines = createInterface({ input: child.stdout });
  let url = '';
  let key = '';
  for await (const line of lines) {
    const listening = /^listening on (http:\/\/127\.0\.0\.1:\d+\/v1)$/.exec(line);
    if (listening) url = listening[1]!;
    const session = /^session key (sk_live_local_\S+)$/.exec(line);
    if (session) key = session[1]!;
    if (url && key) break;
  }
  assert.ok(url && key, `the server started (stderr: ${stderr})`);

  const openapi = await fetch(`${url}/openapi.json`);
  assert.equal(openapi.status, 200);
  const ui = await fetch(url.replace(/\/v1$/, '/'));
  assert.equal(ui.status, 200, 'the UI is served from dist/renderer beside the bundle');
  assert.match(await ui.text(), /<div id="root">/);

  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  const brain = await fetch(`${url}/brains`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ id: 'ana', self: { type: 'person', name: 'Ana' } }),
  });
  assert.equal(brain.status, 201, await brain.clone().text());
  const record = await fetch(`${url}/brains/ana/records`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      content: { kind: 'message', speaker: 'Ana', text: 'I moved to Porto in 2021 for the sailing club.' },
      occurred_at: '2023-05-01T12:00:00Z',
    }),
  });
  assert.equal(record.status, 202, await record.clone().text());
  // Context runs retrieval: the embedding worker (started by path: a query embedding is counted only
  // once it has loaded its model) and the reranker model (read by path).
  let context: { status: number; body: { text?: string; cost?: { embedding_calls: number } } } | null = null;
  for (let i = 0; i < 200; i++) {
    const r = await fetch(`${url}/brains/ana/context`, {
      method: 'POST',
      headers: { ...headers, 'Brain-Watermark': record.headers.get('Brain-Watermark')! },
      body: JSON.stringify({ query: 'Where did Ana move?' }),
    });
    context = { status: r.status, body: (await r.json()) as NonNullable<typeof context>['body'] };
    if (context.status === 200 && (context.body.cost?.embedding_calls ?? 0) > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.equal(context?.status, 200, JSON.stringify(context));
  assert.ok(
    (context.body.cost?.embedding_calls ?? 0) > 0,
    `the embedder answered: ${JSON.stringify(context)}`,
  );
  assert.match(JSON.stringify(context.body), /Porto/);
  assert.equal(existsSync(cacheDir), false, 'the word vectors came from the resources, not a build');

  child.kill('SIGTERM');
  assert.equal(await exited, 0, stderr);
});
