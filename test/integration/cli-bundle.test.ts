import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { freshCliBundle } from '../../bin/cli-bundle.mjs';

/** A bundle directory whose inputs.json lists `files` (paths from the checkout). */
function bundleDir(files: Array<[string, number, number]> | null): string {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-cli-bundle-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  if (files) writeFileSync(join(dir, 'inputs.json'), JSON.stringify({ files }));
  return dir;
}

const asBuilt = (file: string): [string, number, number] => {
  const st = statSync(join(import.meta.dirname, '..', '..', file));
  return [file, st.size, st.mtimeMs];
};

describe('the CLI bundle bin/mnemo.mjs runs', () => {
  it('is used while every file it was built from is as it was', () => {
    const dir = bundleDir([asBuilt('package.json'), asBuilt('bin/mnemo.mjs')]);
    assert.deepEqual(freshCliBundle(dir), {
      main: join(dir, 'main.mjs'),
      embedWorker: join(dir, 'embed-worker.mjs'),
      deriveThread: join(dir, 'derive-thread.mjs'),
      dir,
    });
  });

  it('is passed over when a source changed, is gone, or the list is missing', () => {
    const [file, size, mtimeMs] = asBuilt('package.json');
    assert.equal(freshCliBundle(bundleDir([[file, size + 1, mtimeMs]])), null, 'another size');
    assert.equal(freshCliBundle(bundleDir([[file, size, mtimeMs - 1000]])), null, 'written since');
    assert.equal(freshCliBundle(bundleDir([['engine/no-such-module.ts', 1, 1]])), null, 'gone');
    assert.equal(freshCliBundle(bundleDir(null)), null, 'never built');
  });

  it('opens an embedded PostgreSQL with pgvector, whose files are read beside their modules', async () => {
    // bin/mnemo.mjs runs the bundle npm test built (MNEMO_TEST_CLI_BUNDLE) with scripts/build-cli.mjs.
    // WebAssembly by the baseline compiler only, as in the test processes (scripts/test.mjs): PGlite's
    // 9 MB module runs for seconds here, and the optimising tier's compiles cost ~3 CPU s more than
    // they save. Which tier compiles it is not what this test is about.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--liftoff-only',
        'bin/mnemo.mjs',
        'bench',
        'write',
        '--engine',
        'postgres',
        '--records',
        '3',
        '--concurrency',
        '1',
      ],
      { cwd: join(import.meta.dirname, '..', '..'), env: { ...process.env, MNEMO_LOG: 'silent' } },
    );
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(
      lines.map((l) => [l['scope'], l['engine'], l['records']]),
      [
        ['http', 'postgres', 3],
        ['derive', 'postgres', 3],
      ],
    );
  });
});

/** The files MAIN imports before it runs (its static imports, transitively), and the packages among them. */
function loadedAtStart(main: string): { files: string[]; packages: Set<string> } {
  const files: string[] = [];
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.includes(file)) return;
    files.push(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(
      /^(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/gm,
    )) {
      if (spec!.startsWith('.')) visit(resolve(dirname(file), spec!));
      else if (!spec!.startsWith('node:')) packages.add(spec!);
    }
  };
  visit(main);
  return { files, packages };
}

describe(
  'the CLI bundle a command starts with',
  { skip: !process.env.MNEMO_TEST_CLI_BUNDLE && 'no CLI bundle built' },
  () => {
    const { files, packages } = loadedAtStart(process.env.MNEMO_TEST_CLI_BUNDLE!);
    it('loads no native module and no store until a command opens one', () => {
      assert.ok(files.length > 1, 'main.mjs imports its shared chunks');
      for (const native of ['better-sqlite3-multiple-ciphers', 'sqlite-vec', 'onnxruntime-node', 'pg'])
        assert.ok(!packages.has(native), `${native} is loaded by every command: ${[...packages].join(', ')}`);
    });

    it("holds one of zod's locales, the English its messages are compared with", () => {
      const locales = files.flatMap((f) => [
        ...readFileSync(f, 'utf8').matchAll(
          /^\/\/ (?:\S*\/)?node_modules\/zod\/v4\/locales\/([\w-]+)\.js$/gm,
        ),
      ]);
      assert.deepEqual(
        locales.map((m) => m[1]),
        ['en'],
      );
    });
  },
);
