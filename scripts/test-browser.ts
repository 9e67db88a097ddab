// Started by scripts/test.mjs: one Chromium for every e2e file of the run, each of which connects to it
// and works in a browser context of its own (test/e2e/harness.ts), instead of starting Chromium itself
// (~2.5 CPU s each). Prints one JSON line with the address to connect to, and closes the browser when
// its stdin ends (scripts/test.mjs ends it, or its own end closes the pipe) or on a stop signal.
import { chromium } from 'playwright-core';
import { launchOptions } from '../test/e2e/browser-options.ts';

const server = await chromium.launchServer(launchOptions);
process.stdout.write(`${JSON.stringify({ wsEndpoint: server.wsEndpoint() })}\n`);
let closing: Promise<void> | null = null;
const close = () => {
  closing ??= server.close().finally(() => process.exit(0));
};
process.stdin.on('end', close);
process.stdin.resume();
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, close);
