// Runs the given test files under node:test in the order given (`node --test` sorts its files by
// path, which leaves the slowest ones to chance), printing the spec report and writing the summary
// reporter's JSON to the file after --summary=. Started by scripts/test.mjs under its TypeScript loader
// (`--import` scripts/test-loader.mjs), which every test file's process inherits.
import { setMaxListeners } from 'node:events';
import { createWriteStream } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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
