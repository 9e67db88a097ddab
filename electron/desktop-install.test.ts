// desktop:install's build of the SQLite binding for Electron, with @electron/rebuild and the load in
// Electron stood in for (neither can run without network and a desktop).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { electronBuildPath } from '../engine/adapters/sqlite/sqlite-binding.ts';

interface RebuildOptions {
  buildPath: string;
  electronVersion: string;
  onlyModules: string[];
}
const install = (await import(new URL('../scripts/desktop-install.mjs', import.meta.url).href)) as {
  electronTarget: (dir?: string) => { version: string; abi: string };
  installElectronBinding: (opts: {
    packageDir: string;
    electron: { version: string; abi: string };
    platform: string;
    arch: string;
    stageDir: string;
    rebuild: (o: RebuildOptions) => Promise<void>;
    verify: (path: string) => unknown;
  }) => Promise<string>;
};

function fakePackage(dir: string): string {
  const pkg = join(dir, 'node_modules', 'better-sqlite3-multiple-ciphers');
  for (const [file, text] of Object.entries({
    'package.json': JSON.stringify({ name: 'better-sqlite3-multiple-ciphers', version: '12.11.1' }),
    'binding.gyp': '{}',
    'src/better_sqlite3.cpp': '// source',
    'lib/index.js': 'module.exports = {};',
    'build/Release/better_sqlite3.node': 'node build',
  })) {
    mkdirSync(join(pkg, file, '..'), { recursive: true });
    writeFileSync(join(pkg, file), text);
  }
  return pkg;
}

test("the installed Electron's version and ABI are read from its package", () => {
  const t = install.electronTarget();
  assert.match(t.version, /^41\./);
  assert.match(t.abi, /^\d+$/);
  assert.notEqual(t.abi, process.versions.modules, "Electron's ABI is not this Node's");
});

test('the Electron build goes beside the Node build, which stays as it was', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-desktop-install-'));
  try {
    const packageDir = fakePackage(dir);
    const stageDir = join(dir, 'node_modules', '.cache', 'stage');
    const electron = { version: '41.7.1', abi: '145' };
    const seen: RebuildOptions[] = [];
    const verified: string[] = [];
    const target = await install.installElectronBinding({
      packageDir,
      electron,
      platform: 'linux',
      arch: 'x64',
      stageDir,
      rebuild: async (o) => {
        seen.push(o);
        const staged = join(o.buildPath, 'node_modules', 'better-sqlite3-multiple-ciphers');
        assert.ok(existsSync(join(staged, 'src', 'better_sqlite3.cpp')), 'the sources are staged');
        assert.ok(!existsSync(join(staged, 'build')), 'the Node build is not in the copy');
        mkdirSync(join(staged, 'build', 'Release'), { recursive: true });
        writeFileSync(join(staged, 'build', 'Release', 'better_sqlite3.node'), 'electron build');
      },
      verify: (p) => verified.push(p),
    });
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.electronVersion, '41.7.1');
    assert.deepEqual(seen[0]!.onlyModules, ['better-sqlite3-multiple-ciphers']);
    assert.equal(target, electronBuildPath(packageDir, { platform: 'linux', arch: 'x64', modules: '145' }));
    assert.equal(readFileSync(target, 'utf8'), 'electron build');
    assert.deepEqual(verified, [target]);
    assert.equal(
      readFileSync(join(packageDir, 'build', 'Release', 'better_sqlite3.node'), 'utf8'),
      'node build',
    );
    assert.ok(!existsSync(stageDir), 'the copy is removed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a failed rebuild leaves no Electron build and no copy behind', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-desktop-install-'));
  try {
    const packageDir = fakePackage(dir);
    const stageDir = join(dir, 'node_modules', '.cache', 'stage');
    await assert.rejects(
      install.installElectronBinding({
        packageDir,
        electron: { version: '41.7.1', abi: '145' },
        platform: 'linux',
        arch: 'x64',
        stageDir,
        rebuild: async () => {
          throw new Error('node-gyp failed to rebuild');
        },
        verify: () => assert.fail('nothing to verify'),
      }),
      /node-gyp failed/,
    );
    assert.ok(!existsSync(join(packageDir, 'electron-build')));
    assert.ok(!existsSync(stageDir));
    assert.deepEqual(readdirSync(join(packageDir, 'build', 'Release')), ['better_sqlite3.node']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
