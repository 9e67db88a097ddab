/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS by necessity (Electron entry, sandboxed preload, builder hook) */
// Electron's entry (package.json "main"). The shell and the server are TypeScript run through tsx's
// loader, as `mnemo` is, so a checkout starts with no build step.
const { register } = require('tsx/esm/api');

register();
import('./main.ts').catch((e) => {
  console.error('Mnemo could not start:', e);
  process.exit(1);
});
