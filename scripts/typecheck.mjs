// One tsc run per environment, so nothing of Node's reaches the renderer and no DOM type the rest.
// engine/tsconfig.json and electron/tsconfig.json (for editors) are not run: the root project checks
// the same files with the same options, and a run of its own would check the engine again.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const projects = ['tsconfig.json', 'renderer/tsconfig.json'];
let failed = false;
for (const project of projects.filter((p) => existsSync(p))) {
  const r = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project], {
    stdio: 'inherit',
  });
  if (r.status !== 0) failed = true;
  console.error(`typecheck ${project}: ${r.status === 0 ? 'ok' : 'failed'}`);
}
process.exit(failed ? 1 : 0);
