// A load hook that notes every module URL a process loads in the file named by MNEMO_LOADED_LOG, for
// tests of what a process loads and when (registered after the TypeScript loader, so it runs first).
import { appendFileSync } from 'node:fs';

export async function load(url, context, nextLoad) {
  appendFileSync(process.env.MNEMO_LOADED_LOG, `${url}\n`);
  return nextLoad(url, context);
}
