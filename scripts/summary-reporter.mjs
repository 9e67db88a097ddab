import { resolve } from 'node:path';

// A node:test reporter that only counts leaf tests, so scripts/test.mjs can print one honest summary line,
// and times each file from its process's start to its end, so the suite's slowest files are named every
// run and scripts/test.mjs can start the slowest first next time.
export default async function* summaryReporter(source) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const fileMs = {};
  const testsMs = {};
  for await (const event of source) {
    // A file's own test (named by its path as given) completes once its process has exited.
    if (event.type === 'test:complete') {
      const { file, name, nesting, details } = event.data;
      if (nesting !== 0 || !file || typeof details?.duration_ms !== 'number') continue;
      if (resolve(name) === file) fileMs[file] = details.duration_ms;
      // A file that shared its process with others (scripts/test-groups.mjs) is timed by its tests.
      else testsMs[file] = (testsMs[file] ?? 0) + details.duration_ms;
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { details } = event.data;
    // A suite fails of its own only when a hook of it threw (its failed tests are counted already).
    if (details?.type === 'suite' && details.error?.failureType === 'subtestsFailed') continue;
    if (details?.type === 'suite' && event.type === 'test:pass') continue;
    if (event.data.skip || event.data.todo) skipped += 1;
    else if (event.type === 'test:pass') passed += 1;
    else failed += 1;
  }
  yield `${JSON.stringify({ passed, failed, skipped, fileMs, testsMs })}\n`;
}
