import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { buildClient } from '../../scripts/build-cli.mjs';
import { startServer, type RunningServer } from '../start-server.ts';

// `mnemo/client` as a Node app imports it: plain node (no tsx, no loader), the package under the app's
// node_modules with its package.json and the client built as `npm ci` builds it, a real server.
const dir = mkdtempSync(join(tmpdir(), 'mnemo-client-export-'));
let server: RunningServer;

before(async () => {
  server = await startServer({ engine: 'reference', port: 0 });
  const pkg = join(dir, 'node_modules', 'mnemo');
  mkdirSync(pkg, { recursive: true });
  copyFileSync('package.json', join(pkg, 'package.json'));
  // The sources too, as an install from the checkout has them: what the exports named before.
  for (const d of ['server', 'engine']) symlinkSync(join(process.cwd(), d), join(pkg, d));
  await buildClient(join(pkg, 'dist', 'client'));
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const app = `
import { createMnemoClient, MnemoApiError } from 'mnemo/client';
import { loopbackFetch } from 'mnemo/client/loopback-fetch';
const mnemo = createMnemoClient({ baseUrl: process.argv[2], apiKey: 'sk_test_app_secret1', fetch: loopbackFetch });
await mnemo.createBrain({ id: 'me' });
const { record, watermark } = await mnemo.rememberRecord('me', {
  content: { kind: 'message', text: 'My dentist is Dr. Okafor.', speaker: 'user' },
});
const ask = { query: 'dentist' };
let { status, context } = await mnemo.createContext('me', ask, { watermark });
for (let i = 0; status === 202 && i < 50; i++) {
  await new Promise((r) => setTimeout(r, 100));
  ({ status, context } = await mnemo.createContext('me', ask, { watermark }));
}
const receipt = await mnemo.forgetRecord('me', record.id);
const gone = await mnemo.getRecord('me', record.id).catch((e) => e);
console.log(JSON.stringify({
  status,
  cited: context.citations.map((c) => c.record_id).includes(record.id),
  forgot: receipt.deleted.records,
  typed: gone instanceof MnemoApiError,
  code: gone.code,
}));
`;

test('a plain Node app imports mnemo/client and remembers, asks, forgets through it', async () => {
  writeFileSync(join(dir, 'app.mjs'), app);
  const env = { PATH: process.env.PATH ?? '' };
  const { stdout } = await promisify(execFile)(process.execPath, ['app.mjs', server.url], { cwd: dir, env });
  assert.deepEqual(JSON.parse(stdout), {
    status: 200,
    cited: true,
    forgot: 1,
    typed: true,
    code: 'record_not_found',
  });
});

// A TypeScript app's own tsc, as `tsc --init` sets it up: strict, no allowImportingTsExtensions.
const tsApp = `
import { createMnemoClient, isOutcomeUnknown, MnemoApiError } from 'mnemo/client';
import { loopbackFetch } from 'mnemo/client/loopback-fetch';
const mnemo = createMnemoClient({ baseUrl: 'http://127.0.0.1:7821', apiKey: 'k', fetch: loopbackFetch, timeoutMs: 5_000 });
export async function remember(text: string): Promise<string> {
  try {
    const { record } = await mnemo.rememberRecord('me', { content: { kind: 'message', text, speaker: 'user' } });
    return record.id;
  } catch (e) {
    if (e instanceof MnemoApiError && isOutcomeUnknown(e)) return e.idempotencyKey ?? e.code;
    throw e;
  }
}
// Typed, not any: a misuse is caught.
// @ts-expect-error content is a string or a typed object
void mnemo.rememberRecord('me', { content: 42 });
// The HTTP status tells the Context apart: a 200's is ready, with its text.
export async function recall(query: string): Promise<string | null> {
  const c = await mnemo.createContext('me', { query });
  if (c.status === 200) return c.context.text;
  // @ts-expect-error a 202's Context is still processing: it has no text yet
  void c.context.text;
  return null;
}
// As docs/agents.md's loop has it: destructured, asked again while 202, told apart by context.status.
export async function loop(query: string, watermark: string): Promise<string> {
  let { status, context } = await mnemo.createContext('me', { query }, { watermark });
  for (let i = 0; status === 202 && i < 10; i++)
    ({ status, context } = await mnemo.createContext('me', { query }, { watermark }));
  return context.status === 'ready' && context.text ? context.text : '(nothing remembered about this)';
}
`;

test('a TypeScript app type-checks against mnemo/client under node16 and bundler resolution', async () => {
  // What the package's declarations name, beside it as an install of it brings it.
  symlinkSync(join(process.cwd(), 'node_modules', 'zod'), join(dir, 'node_modules', 'zod'));
  // The native compiler (TypeScript 7), as the project's own check: 5.9's took ~13 s for the two.
  const tsc = join(process.cwd(), 'node_modules', 'typescript-native', 'bin', 'tsc');
  const check = async (module: string, moduleResolution: string) => {
    const app = join(dir, `ts-${moduleResolution}`);
    mkdirSync(join(app, 'node_modules', '@types'), { recursive: true });
    symlinkSync(join(dir, 'node_modules', 'mnemo'), join(app, 'node_modules', 'mnemo'));
    symlinkSync(
      join(process.cwd(), 'node_modules', '@types', 'node'),
      join(app, 'node_modules', '@types', 'node'),
    );
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', type: 'module', private: true }));
    writeFileSync(join(app, 'app.ts'), tsApp);
    // The package's declarations are checked too (skipLibCheck off).
    const compilerOptions = {
      module,
      moduleResolution,
      target: 'es2022',
      strict: true,
      skipLibCheck: false,
      noEmit: true,
    };
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['app.ts'] }));
    return promisify(execFile)(process.execPath, [tsc, '-p', '.'], { cwd: app }).then(
      () => '',
      (e: { stdout: string }) => e.stdout,
    );
  };
  const [node16, bundler] = await Promise.all([check('node16', 'node16'), check('esnext', 'bundler')]);
  assert.equal(node16, '');
  assert.equal(bundler, '');
});
