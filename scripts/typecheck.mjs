// One tsc run per environment, so nothing of Node's reaches the renderer and no DOM type the rest.
// The checker is TypeScript 7 (the native compiler, `typescript-native` in package.json): it checks
// this project in a quarter of 5.9's CPU time. `typescript` 5.9 stays for typescript-eslint's parser,
// which does not take 7.
// engine/tsconfig.json and electron/tsconfig.json (for editors) are not run: the root project checks
// the same files with the same options, and a run of its own would check the engine again.
// `--checkers N` is passed on to tsc: `npm test` runs the check beside its tests with one checker,
// where tsc's default of four each work out again the types their files share (~21 CPU s against ~14
// for both projects) for a wall time nobody waits on there.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const projects = ['tsconfig.json', 'renderer/tsconfig.json'];
const at = process.argv.indexOf('--checkers');
const checkers = at === -1 ? [] : ['--checkers', process.argv[at + 1] ?? ''];
let failed = false;
for (const project of projects.filter((p) => existsSync(p))) {
  const r = spawnSync(
    process.execPath,
    ['node_modules/typescript-native/bin/tsc', '-p', project, ...checkers],
    {
      stdio: 'inherit',
    },
  );
  if (r.status !== 0) failed = true;
  console.error(`typecheck ${project}: ${r.status === 0 ? 'ok' : 'failed'}`);
}
process.exit(failed ? 1 : 0);
