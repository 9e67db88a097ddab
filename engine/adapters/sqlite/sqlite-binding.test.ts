import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  chooseSqliteBinding,
  electronBuildPath,
  explainBindingFailure,
  SqliteBindingError,
  type SqliteRuntime,
} from './sqlite-binding.ts';
import { unpackedPath } from './vector-extension.ts';

const node: SqliteRuntime = { electron: null, modules: '115', platform: 'linux', arch: 'x64' };
const electron: SqliteRuntime = { electron: '41.7.1', modules: '145', platform: 'linux', arch: 'x64' };
const checkout = '/home/ana/mnemo/node_modules/better-sqlite3-multiple-ciphers';
const packaged = '/opt/Mnemo/resources/app.asar/node_modules/better-sqlite3-multiple-ciphers';
const electronBuild = join(checkout, 'electron-build', 'linux-x64-abi145', 'better_sqlite3.node');

/** Node's message for an addon of another ABI (src/node_binding.cc), as Electron shows it too. */
function abiError(builtFor: number, needed: number): Error {
  return Object.assign(
    new Error(
      `The module '${checkout}/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js ` +
        `version using\nNODE_MODULE_VERSION ${builtFor}. This version of Node.js requires\nNODE_MODULE_VERSION ` +
        `${needed}. Please try re-compiling or re-installing\nthe module (for instance, using \`npm rebuild\` or \`npm install\`).`,
    ),
    { code: 'ERR_DLOPEN_FAILED' },
  );
}

test('Node opens the build npm ci made; Electron the one desktop:install made for its ABI', () => {
  assert.deepEqual(chooseSqliteBinding({ runtime: node, packageDir: checkout, exists: () => true }), {
    kind: 'default',
  });
  assert.equal(electronBuildPath(checkout, electron), electronBuild);
  assert.deepEqual(
    chooseSqliteBinding({ runtime: electron, packageDir: checkout, exists: (p) => p === electronBuild }),
    { kind: 'file', path: electronBuild },
  );
  // Another Electron (another ABI) or another arch never takes this build.
  const other = { ...electron, modules: '146' };
  assert.equal(
    chooseSqliteBinding({ runtime: other, packageDir: checkout, exists: (p) => p === electronBuild }).kind,
    'missing',
  );
  assert.notEqual(electronBuildPath(checkout, { ...electron, arch: 'arm64' }), electronBuild);
});

test('Electron in a checkout without its build is a missing build; a packaged app has its rebuilt one', () => {
  assert.deepEqual(chooseSqliteBinding({ runtime: electron, packageDir: checkout, exists: () => false }), {
    kind: 'missing',
    path: electronBuild,
  });
  assert.deepEqual(chooseSqliteBinding({ runtime: electron, packageDir: packaged, exists: () => false }), {
    kind: 'default',
  });
});

test('a missing build names its path and the command that makes it', () => {
  const e = explainBindingFailure(null, {
    runtime: electron,
    packageDir: checkout,
    choice: { kind: 'missing', path: electronBuild },
  });
  assert.ok(e instanceof SqliteBindingError);
  assert.equal(e.failure, 'missing');
  assert.equal(e.fix, 'npm run desktop:install');
  assert.match(e.message, /Electron 41\.7\.1 \(NODE_MODULE_VERSION 145\)/);
  assert.ok(e.message.includes(electronBuild));
  assert.match(e.message, /`npm run desktop:install`.*store is untouched/);
});

test('an ABI mismatch is reported with both module versions and the fix for this runtime', () => {
  const inElectron = explainBindingFailure(abiError(115, 145), {
    runtime: electron,
    packageDir: packaged,
    choice: { kind: 'default' },
  });
  assert.equal(inElectron?.failure, 'abi-mismatch');
  assert.deepEqual(inElectron?.abi, { builtFor: 115, needed: 145 });
  assert.equal(inElectron?.fix, null, 'a packaged app is fixed by installing it again');
  assert.match(
    inElectron!.message,
    /built for NODE_MODULE_VERSION 115, and this runtime needs 145.*Install Mnemo again/s,
  );

  // The CLI after the checkout's build was rebuilt for Electron (electron-builder's npmRebuild does that).
  const inNode = explainBindingFailure(abiError(145, 115), {
    runtime: node,
    packageDir: checkout,
    choice: { kind: 'default' },
  });
  assert.deepEqual(inNode?.abi, { builtFor: 145, needed: 115 });
  assert.equal(inNode?.fix, 'npm rebuild better-sqlite3-multiple-ciphers');
});

test('a missing compiled file is told from a database error, which stays as it is', () => {
  const context = { runtime: node, packageDir: checkout, choice: { kind: 'default' } as const };
  const bindings = new Error(
    'Could not locate the bindings file. Tried:\n → /x/build/better_sqlite3.node\n → /x/build/Release/better_sqlite3.node',
  );
  assert.equal(explainBindingFailure(bindings, context)?.failure, 'missing');
  const notFound = Object.assign(new Error(`Cannot find module '${electronBuild}'`), {
    code: 'MODULE_NOT_FOUND',
  });
  assert.equal(explainBindingFailure(notFound, context)?.failure, 'missing');
  const wrongArch = Object.assign(new Error('/x/better_sqlite3.node: wrong ELF class: ELFCLASS32'), {
    code: 'ERR_DLOPEN_FAILED',
  });
  assert.equal(explainBindingFailure(wrongArch, context)?.failure, 'unloadable');
  const sqlite = Object.assign(new Error('unable to open database file'), { code: 'SQLITE_CANTOPEN' });
  assert.equal(explainBindingFailure(sqlite, context), null);
  assert.equal(
    explainBindingFailure(
      new TypeError('Cannot open database because the directory does not exist'),
      context,
    ),
    null,
  );
});

test('sqlite-vec is loaded from the unpacked copy of a packaged app', () => {
  assert.equal(
    unpackedPath('/opt/Mnemo/resources/app.asar/node_modules/sqlite-vec-linux-x64/vec0.so'),
    '/opt/Mnemo/resources/app.asar.unpacked/node_modules/sqlite-vec-linux-x64/vec0.so',
  );
  assert.equal(
    unpackedPath('C:\\Mnemo\\resources\\app.asar\\node_modules\\sqlite-vec-windows-x64\\vec0.dll'),
    'C:\\Mnemo\\resources\\app.asar.unpacked\\node_modules\\sqlite-vec-windows-x64\\vec0.dll',
  );
  const plain = '/home/ana/mnemo/node_modules/sqlite-vec-linux-x64/vec0.so';
  assert.equal(unpackedPath(plain), plain);
});

test('mnemo serve in a runtime without its build says so and the fix, and leaves the data dir alone', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-binding-'));
  try {
    // Node posing as Electron 41: the binding it would need is not built in this checkout.
    const pose = join(dir, 'pose-as-electron.mjs');
    writeFileSync(pose, "Object.defineProperty(process.versions, 'electron', { value: '41.7.1' });\n");
    const dataDir = join(dir, 'data');
    const bin = join(import.meta.dirname, '..', '..', '..', 'bin', 'mnemo.mjs');
    const r = spawnSync(
      process.execPath,
      ['--import', pose, bin, 'serve', '--port', '0', '--data-dir', dataDir, '--no-ui'],
      {
        encoding: 'utf8',
        env: { ...process.env, MNEMO_DB_KEY: 'k'.repeat(64), MNEMO_LOG: 'silent' },
        timeout: 60_000,
      },
    );
    assert.equal(r.status, 1, r.stderr);
    assert.match(
      r.stderr,
      /^mnemo: The database module \(better-sqlite3-multiple-ciphers\) cannot load in Electron 41\.7\.1/m,
    );
    assert.match(
      r.stderr,
      /its build for this runtime is missing .*electron-build.*`npm run desktop:install`/,
    );
    assert.doesNotMatch(r.stderr, /^ {4}at /m, 'no stack trace');
    assert.equal(r.stdout, '');
    assert.ok(
      !existsSync(dataDir) || readdirSync(dataDir).length === 0,
      'nothing was created in the data dir',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
