// The TypeScript loader every test file's process starts with (scripts/test.mjs passes it to node:test,
// whose file processes inherit it): tsx takes ~0.6 CPU s to start in each of ~200 processes a run, this
// one ~0.15. It strips the types with esbuild, as tsx does, and keeps what it made in
// node_modules/.cache/mnemo/ts, so a process transforms only the files changed since.
import { register } from 'node:module';
import { resolve, sep } from 'node:path';
import { isMainThread } from 'node:worker_threads';

// Stack traces name the .ts lines (each module carries its inline source map).
process.setSourceMapsEnabled(true);
// A test file bundled by scripts/bundle-tests.mjs is plain JavaScript: its process needs no loader
// thread. A child it starts with these flags and a .ts file gets one. A worker thread runs this too
// (it inherits `--import`) and would start a loader thread of its own, ~1 CPU s an engine's embedder
// and checkpointer: none needs it (their entries are plain JavaScript or register tsx themselves).
const bundles = process.env.MNEMO_TEST_BUNDLES;
const main = process.argv[1];
if (isMainThread && !(bundles && main && resolve(main).startsWith(resolve(bundles) + sep)))
  register('./test-loader-hooks.mjs', import.meta.url);

// `MNEMO_TEST_CPU_LOG=FILE npm test` appends each test process's CPU seconds, its own and its
// reaped children's (CLI servers, initdb), to FILE: wall times rank files by how long they wait as much
// as by what they cost the two cores every file shares.
const cpuLog = process.env.MNEMO_TEST_CPU_LOG;
if (cpuLog && main) {
  if (isMainThread) {
    const { appendFileSync, readFileSync } = await import('node:fs');
    process.on('exit', () => {
      try {
        // utime, stime, cutime, cstime: fields 14-17 of /proc/self/stat, after the command's ")".
        const stat = readFileSync('/proc/self/stat', 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const ticks = [11, 12, 13, 14].map((i) => Number(f[i]));
        const self = (ticks[0] + ticks[1]) / 100;
        const kids = (ticks[2] + ticks[3]) / 100;
        appendFileSync(cpuLog, `${main}\t${self.toFixed(2)}\t${kids.toFixed(2)}\n`);
      } catch {
        // Not Linux, or /proc unreadable: nothing to log.
      }
    });
  }
}
