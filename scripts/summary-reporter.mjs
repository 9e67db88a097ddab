// A node:test reporter that only counts leaf tests, so scripts/test.mjs can print one honest summary line,
// and sums each file's top-level tests' durations, so the suite's slowest files are named every run.
export default async function* summaryReporter(source) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const fileMs = {};
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details } = event.data;
    if (nesting === 0 && file && typeof details?.duration_ms === 'number')
      fileMs[file] = (fileMs[file] ?? 0) + details.duration_ms;
    if (details?.type === 'suite') continue;
    if (event.data.skip || event.data.todo) skipped += 1;
    else if (event.type === 'test:pass') passed += 1;
    else failed += 1;
  }
  yield `${JSON.stringify({ passed, failed, skipped, fileMs })}\n`;
}
