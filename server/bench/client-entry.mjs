// A benchmark's client process starts without the parent's module hooks. Its module (a file URL, the
// first argument) runs from the bundle of it beside the command's (scripts/build-cli.mjs) when
// MNEMO_BENCH_CLIENT_BUNDLES names that folder and it holds one, else its TypeScript through tsx's API.
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const module = process.argv[2];
const bundles = process.env.MNEMO_BENCH_CLIENT_BUNDLES;
const bundle = bundles ? join(bundles, `bench-${basename(fileURLToPath(module), '.ts')}.mjs`) : null;
if (bundle && existsSync(bundle)) {
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(module);
}
