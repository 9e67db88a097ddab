// `npm run desktop:package [-- electron-builder options]`: builds the UI, the bundle and the word-vector
// table the app ships instead of wink-embeddings' JSON (scripts/build-word-table.mjs), then the desktop
// packages (electron-builder.yml; e.g. `-- --linux AppImage`). electron-builder's npmRebuild
// rebuilds better-sqlite3-multiple-ciphers for the packaged Electron in place, over the Node build the
// CLI uses: that build is kept aside and put back afterwards, whatever electron-builder did.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const nodeBuild = join(
  root,
  'node_modules',
  'better-sqlite3-multiple-ciphers',
  'build',
  'Release',
  'better_sqlite3.node',
);

function run(args) {
  const r = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

run([join(root, 'scripts', 'build-ui.mjs')]);
run([join(root, 'scripts', 'build-electron.mjs')]);
run([join(root, 'scripts', 'build-word-table.mjs')]);
const aside = mkdtempSync(join(tmpdir(), 'mnemo-node-binding-'));
const kept = existsSync(nodeBuild);
if (kept) copyFileSync(nodeBuild, join(aside, 'better_sqlite3.node'));
let status = 1;
try {
  const builder = join(root, 'node_modules', 'electron-builder', 'cli.js');
  status =
    spawnSync(process.execPath, [builder, ...process.argv.slice(2)], { stdio: 'inherit', cwd: root })
      .status ?? 1;
} finally {
  if (kept) copyFileSync(join(aside, 'better_sqlite3.node'), nodeBuild);
  rmSync(aside, { recursive: true, force: true });
}
process.exit(status);
