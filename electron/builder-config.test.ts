// electron-builder.yml: valid against electron-builder's own schema, with the targets, unpacked
// native modules and fuse hook the desktop build needs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';

const require = createRequire(import.meta.url);
const root = join(import.meta.dirname, '..');

test('electron-builder.yml is valid and complete', async () => {
  const yaml = require(require.resolve('js-yaml', { paths: [require.resolve('app-builder-lib')] })) as {
    load: (s: string) => Record<string, unknown>;
  };
  const cfg = yaml.load(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as {
    asarUnpack: string[];
    afterPack: string;
    linux: { target: string[] };
    mac: { target: string };
    win: { target: string };
  };
  const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
    validateConfiguration: (c: unknown, l: unknown) => Promise<void>;
  };
  const { DebugLogger } = require('builder-util/out/DebugLogger') as {
    DebugLogger: new (on: boolean) => unknown;
  };
  await validateConfiguration(cfg, new DebugLogger(false));
  assert.deepEqual(cfg.linux.target, ['AppImage', 'deb']);
  assert.equal(cfg.mac.target, 'dmg');
  assert.equal(cfg.win.target, 'nsis');
  for (const m of ['better-sqlite3-multiple-ciphers', 'onnxruntime-node', 'sqlite-vec']) {
    assert.ok(
      cfg.asarUnpack.some((p) => p.startsWith(`node_modules/${m}/`)),
      `${m} is unpacked`,
    );
  }
  assert.equal(cfg.afterPack, 'electron/fuses.cjs');
});

test('the packaged app carries every file the engine and server load at run time', () => {
  const yaml = require(require.resolve('js-yaml', { paths: [require.resolve('app-builder-lib')] })) as {
    load: (s: string) => { files: string[] };
  };
  const { files } = yaml.load(readFileSync(join(root, 'electron-builder.yml'), 'utf8'));
  // Not loaded at run time: documentation, the type checker's project files, tests.
  const devOnly = (f: string) => /\.test\.ts$|(^|\/)README\.md$|(^|\/)tsconfig\.json$/.test(f);
  for (const dir of ['engine', 'server']) {
    const pattern = files.find((p) => p.startsWith(`${dir}/**/*.`));
    assert.ok(pattern, `${dir}/ is packaged`);
    const exts = /\*\.\{?([^{}]+)\}?$/.exec(pattern)![1]!.split(',');
    for (const f of readdirSync(join(root, dir), { recursive: true, withFileTypes: true })) {
      if (!f.isFile()) continue;
      const rel = relative(root, join(f.parentPath, f.name));
      if (devOnly(rel)) continue;
      assert.ok(exts.includes(extname(rel).slice(1)), `${rel} is in the package (${pattern})`);
    }
  }
});
