// The TypeScript loader every test file's process starts with (scripts/test.mjs passes it to node:test,
// whose file processes inherit it): tsx takes ~0.6 CPU s to start in each of ~200 processes a run, this
// one ~0.15. It strips the types with esbuild, as tsx does, and keeps what it made in
// node_modules/.cache/mnemo/ts, so a process transforms only the files changed since.
import { register } from 'node:module';
import { resolve, sep } from 'node:path';

// Stack traces name the .ts lines (each module carries its inline source map).
process.setSourceMapsEnabled(true);
// A test file bundled by scripts/bundle-tests.mjs is plain JavaScript: its process (and the worker
// threads it starts, which see the same argv) needs no loader thread. A child it starts with these
// flags and a .ts file gets one.
const bundles = process.env.MNEMO_TEST_BUNDLES;
const main = process.argv[1];
if (!(bundles && main && resolve(main).startsWith(resolve(bundles) + sep)))
  register('./test-loader-hooks.mjs', import.meta.url);
