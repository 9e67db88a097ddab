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

// `npm test` names a bundle of these same modules (scripts/build-test-cli.mjs) that starts in a third of
// the CPU time, for the tests that start this command dozens of times.
const bundle = process.env.MNEMO_TEST_CLI_BUNDLE;
let main;
if (bundle) {
  ({ main } = await import(pathToFileURL(bundle).href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../server/cli/main.ts'));
}
await main(process.argv.slice(2), heldSignals);
