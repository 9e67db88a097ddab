// electron-builder.yml: valid against electron-builder's own schema, with the targets, unpacked
// native modules and fuse hook the desktop build needs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

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
