// `npm start`: the desktop app where Electron is installed and a display exists, else the headless
// server with the UI (`mnemo serve --ui`). Says which it did and why. Extra arguments go to `serve`.
// Electron runs the bundle (dist/electron), rebuilt first so it is never older than the checkout.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const { chooseLaunch } = await import('../electron/launch-mode.ts');

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
let electron;
try {
  electron = { path: require('electron') };
} catch (e) {
  electron = { error: e instanceof Error ? e.message : String(e) };
}

const choice = chooseLaunch({
  electron,
  platform: process.platform,
  env: process.env,
  binaryExists: existsSync,
});
if (choice.mode === 'electron') {
  for (const script of ['build-ui.mjs', 'build-electron.mjs']) {
    const built = spawnSync(process.execPath, [join(root, 'scripts', script)], { stdio: 'inherit' });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }
}
const child =
  choice.mode === 'electron'
    ? (console.error('npm start: launching the Mnemo desktop app (Electron)'),
      spawn(choice.binary, [root], { stdio: 'inherit' }))
    : (console.error(
        `npm start: ${choice.reason}, so running the headless server with the UI (mnemo serve --ui)`,
      ),
      spawn(process.execPath, [join(root, 'bin', 'mnemo.mjs'), 'serve', '--ui', ...process.argv.slice(2)], {
        stdio: 'inherit',
      }));

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
