// Runs the given test files under node:test in the order given (`node --test` sorts its files by
// path, which leaves the slowest ones to chance), printing the spec report and writing the summary
// reporter's JSON to the file after --summary=. Started by scripts/test.mjs under its TypeScript loader
// (`--import` scripts/test-loader.mjs), which every test file's process inherits.
import { setMaxListeners } from 'node:events';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { relative, resolve, sep } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import summaryReporter from './summary-reporter.mjs';

const args = process.argv.slice(2);
const option = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const files = args.filter((a) => !a.startsWith('--'));

// A stop signal cancels the run, which ends the test files' processes: sent to this process alone
// (scripts/test.mjs forwards it, then stops the run's PostgreSQL cluster), they would run on orphaned.
const cancel = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => cancel.abort());
// node:test listens to the signal once per file it has under way or queued: past ten, Node would warn
// of a leak that is not one.
setMaxListeners(files.length + 10, cancel.signal);
// A file that hangs (a promise never settled, a timer or worker a failed test left open) fails after
// this, named in the report, instead of holding the run until CI's own limit; the slowest file takes
// under a minute.
const fileTimeoutMs = Number(option('file-timeout-ms') ?? 10 * 60_000);
const events = run({
  files,
  concurrency: Number(option('concurrency') ?? 2),
  signal: cancel.signal,
  timeout: fileTimeoutMs,
});
// A bundled file (scripts/bundle-tests.mjs) is reported and timed as its source, and a failing test is
// located in its source through the bundle's source map: a bundle's lines and names mean nothing to
// whoever reads the report.
const bundles = process.env.MNEMO_TEST_BUNDLES ? resolve(process.env.MNEMO_TEST_BUNDLES) : null;
const inBundles = (file) => bundles !== null && resolve(file).startsWith(bundles + sep);
const sources = new Map();
/** The source a bundled test file was built from, or null (a chunk, or no such source). */
function sourceOf(file) {
  if (!sources.has(file)) {
    const stem = relative(bundles, resolve(file)).replace(/\.mjs$/, '');
    sources.set(file, ['.ts', '.tsx'].map((ext) => resolve(stem + ext)).find((f) => existsSync(f)) ?? null);
  }
  return sources.get(file);
}
const maps = new Map();
/** Where a bundle's line and column (from 1) came from, by its inline source map, or null. */
function originalPosition(file, line, column) {
  if (!maps.has(file)) {
    const text = readFileSync(file, 'utf8');
    const url = /\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/.exec(text);
    maps.set(file, url ? new SourceMap(JSON.parse(Buffer.from(url[1], 'base64').toString('utf8'))) : null);
  }
  const entry = maps.get(file)?.findEntry(line - 1, column - 1);
  if (!entry?.originalSource) return null;
  return {
    file: fileURLToPath(new URL(entry.originalSource, pathToFileURL(resolve(file)))),
    line: entry.originalLine + 1,
    column: entry.originalColumn + 1,
  };
}
events.on('data', (event) => {
  const data = event.data;
  if (!data?.file || !inBundles(data.file)) return;
  const source = sourceOf(data.file);
  if (source && typeof data.name === 'string' && resolve(data.name) === resolve(data.file))
    data.name = relative('.', source);
  const at =
    event.type === 'test:fail' && data.line && data.column
      ? originalPosition(data.file, data.line, data.column)
      : null;
  if (at) Object.assign(data, at);
  else if (source) {
    data.file = source;
    delete data.line;
    delete data.column;
  }
});
const toSummary = new PassThrough({ objectMode: true });
const toSpec = new PassThrough({ objectMode: true });
events.pipe(toSummary);
events.pipe(toSpec);
// A file that fails without a failing test (it crashed, or a hook threw) is a test:fail of its own.
events.on('data', (event) => {
  // A failing todo test is expected to fail, as node --test counts it.
  if (event.type === 'test:fail' && !event.data.todo) process.exitCode = 1;
});
await Promise.all([
  pipeline(toSpec, new spec(), process.stdout, { end: false }),
  pipeline(Readable.from(summaryReporter(toSummary)), createWriteStream(option('summary'))),
]);
