#!/usr/bin/env node
// The `mnemo` command. TypeScript sources run through tsx's loader, so a checkout works right after
// `npm ci` with no build step to remember.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../server/cli/main.ts');
await main(process.argv.slice(2));
