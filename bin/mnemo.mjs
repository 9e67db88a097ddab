#!/usr/bin/env node
// The `mnemo` command. TypeScript sources run through tsx's loader, so a checkout works right after
// `npm ci` with no build step to remember.

// Loading the modules takes over a second. A SIGTERM, SIGINT or SIGHUP in that time is held for the command
// (`mnemo serve` then stops cleanly, exit code 0) instead of killing the process half-started; the
// other commands get it back as if it had just arrived. Hence dynamic imports: static ones would load
// before these listeners exist.
import { pathToFileURL } from 'node:url';

const held = [];
const hold = (signal) => held.push(signal);
const stops = ['SIGTERM', 'SIGINT', 'SIGHUP'];
for (const signal of stops) process.on(signal, hold);
const heldSignals = {
  release() {
    for (const signal of stops) process.off(signal, hold);
    return held.splice(0);
  },
};

// A bundle of these same modules (scripts/build-cli.mjs) starts in a third of the CPU time and holds ~55
// MB less than the sources through tsx: `npm test` names its own (MNEMO_TEST_CLI_BUNDLE; empty: tsx),
// else dist/cli's runs while it is up to date with the checkout (cli-bundle.mjs).
let bundle = process.env.MNEMO_TEST_CLI_BUNDLE;
if (bundle === undefined) {
  const { freshCliBundle } = await import('./cli-bundle.mjs');
  const fresh = freshCliBundle();
  if (fresh) {
    bundle = fresh.main;
    // The embedding worker the server starts, bundled beside it (engine/embed/embed-worker-entry.mjs).
    process.env.MNEMO_EMBED_WORKER_BUNDLE ??= fresh.embedWorker;
    // And the derive thread, started under a stream of writes (engine/derive/derive-thread-entry.mjs).
    process.env.MNEMO_DERIVE_THREAD_BUNDLE ??= fresh.deriveThread;
    // And the benchmarks' clients (server/bench/client-entry.mjs).
    process.env.MNEMO_BENCH_CLIENT_BUNDLES ??= fresh.dir;
  }
}
let main;
if (bundle) {
  ({ main } = await import(pathToFileURL(bundle).href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../server/cli/main.ts'));
}
await main(process.argv.slice(2), heldSignals);
