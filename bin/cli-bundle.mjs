// Which bundle of the `mnemo` command's modules to run: dist/cli (scripts/build-cli.mjs, made by npm's
// `prepare`) while every file it was built from is as it was then, so an edited or checked-out source is
// never shadowed by an older build; null otherwise, and the sources run through tsx.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * dist/cli's bundle, its embedding worker and its folder (with the benchmark clients) when they are up
 * to date with the checkout, else null.
 */
export function freshCliBundle(dir = join(root, 'dist', 'cli')) {
  let files;
  try {
    ({ files } = JSON.parse(readFileSync(join(dir, 'inputs.json'), 'utf8')));
  } catch {
    return null;
  }
  for (const [file, size, mtimeMs] of files) {
    let st;
    try {
      st = statSync(join(root, file));
    } catch {
      return null;
    }
    if (st.size !== size || st.mtimeMs !== mtimeMs) return null;
  }
  return {
    main: join(dir, 'main.mjs'),
    embedWorker: join(dir, 'embed-worker.mjs'),
    deriveThread: join(dir, 'derive-thread.mjs'),
    dir,
  };
}
