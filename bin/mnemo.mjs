#!/usr/bin/env node
// The `mnemo` command. TypeScript sources run through tsx's loader, so a checkout works right after
// `npm ci` with no build step to remember.

// Loading the modules takes over a second. A SIGTERM, SIGINT or SIGHUP in that time is held for the command
// (`mnemo serve` then stops cleanly, exit code 0) instead of killing the process half-started; the
// other commands get it back as if it had just arrived. Hence dynamic imports: static ones would load
// before these listeners exist.
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

const { register } = await import('tsx/esm/api');
register();
const { main } = await import('../server/cli/main.ts');
await main(process.argv.slice(2), heldSignals);
