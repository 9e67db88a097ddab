// `npm run desktop:install`: what the desktop app needs beyond `npm ci`, fetched once on a desktop with
// network. 1. Electron's binary (npm ci skips its download). 2. The SQLite binding built for Electron's
// ABI: better-sqlite3-multiple-ciphers is a NAN addon, and the build npm ci made is Node's, which the
// CLI and `mnemo serve` keep using. @electron/rebuild (a prebuilt binary where one is published, else
// a compile) works on a copy of the package, and the result goes where the desktop app looks for it
// (engine/adapters/sqlite/sqlite-binding.ts). onnxruntime-node (Node-API) and sqlite-vec (a SQLite extension)
// load in any runtime and need nothing.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const { bindingPackage, electronBuildPath } = await import('../engine/adapters/sqlite/sqlite-binding.ts');

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** Electron's version and the NODE_MODULE_VERSION its Node loads, from the installed package. */
export function electronTarget(electronDir = join(root, 'node_modules', 'electron')) {
  const version = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')).version;
  const abi = readFileSync(join(electronDir, 'abi_version'), 'utf8').trim();
  if (!/^\d+$/.test(abi)) throw new Error(`${electronDir}/abi_version holds no ABI number`);
  return { version, abi };
}

/**
 * Builds the binding for Electron into its own place, never touching the package's Node build.
 * `rebuild` and `verify` are @electron/rebuild and a load in Electron; tests pass stand-ins.
 */
export async function installElectronBinding(opts) {
  const packageDir = opts.packageDir;
  const target = electronBuildPath(packageDir, {
    platform: opts.platform,
    arch: opts.arch,
    modules: opts.electron.abi,
  });
  const stage = opts.stageDir;
  rmSync(stage, { recursive: true, force: true });
  const stagedPackage = join(stage, 'node_modules', bindingPackage);
  // The sources and the JavaScript, without either build (build/ is Node's, electron-build/ ours).
  cpSync(packageDir, stagedPackage, {
    recursive: true,
    filter: (src) => !/^(build|electron-build)(\/|\\|$)/.test(relative(packageDir, src)),
  });
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  writeFileSync(
    join(stage, 'package.json'),
    JSON.stringify({
      name: 'mnemo-electron-binding',
      private: true,
      dependencies: { [bindingPackage]: version },
    }),
  );
  try {
    await opts.rebuild({
      buildPath: stage,
      electronVersion: opts.electron.version,
      arch: opts.arch,
      platform: opts.platform,
      onlyModules: [bindingPackage],
      force: true,
      mode: 'sequential',
    });
    const built = join(stagedPackage, 'build', 'Release', 'better_sqlite3.node');
    if (!existsSync(built)) throw new Error(`the rebuild left no ${built}`);
    mkdirSync(dirname(target), { recursive: true });
    cpSync(built, target);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  await opts.verify(target);
  return target;
}

/** Loads the new build in Electron itself (as Node: no window, no display needed). */
function verifyInElectron(electronBinary, packageDir) {
  return (bindingPath) => {
    const dir = mkdtempSync(join(tmpdir(), 'mnemo-binding-probe-'));
    try {
      const probe = join(dir, 'probe.cjs');
      writeFileSync(
        probe,
        `const D = require(${JSON.stringify(packageDir)});\n` +
          `const db = new D(':memory:', { nativeBinding: ${JSON.stringify(bindingPath)} });\n` +
          "console.log(db.prepare('SELECT sqlite_version() AS v').get().v);\n",
      );
      const r = spawnSync(electronBinary, [probe], {
        encoding: 'utf8',
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      });
      if (r.status !== 0) throw new Error(`Electron cannot load ${bindingPath}: ${r.stderr.trim()}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    console.error('desktop:install: fetching the Electron binary');
    const fetched = spawnSync(process.execPath, [join(root, 'node_modules', 'electron', 'install.js')], {
      stdio: 'inherit',
    });
    if (fetched.status !== 0) throw new Error('fetching the Electron binary failed (see above)');
    const electron = electronTarget();
    const packageDir = dirname(require.resolve(`${bindingPackage}/package.json`));
    console.error(
      `desktop:install: building ${bindingPackage} for Electron ${electron.version} (NODE_MODULE_VERSION ${electron.abi}); the Node build stays as it is`,
    );
    const { rebuild } = await import('@electron/rebuild');
    const target = await installElectronBinding({
      packageDir,
      electron,
      platform: process.platform,
      arch: process.arch,
      // Inside node_modules, so the copy finds prebuild-install and node-gyp there.
      stageDir: join(root, 'node_modules', '.cache', 'mnemo-electron-binding'),
      rebuild,
      verify: verifyInElectron(require('electron'), packageDir),
    });
    console.error(`desktop:install: done (${relative(root, target)}); npm start opens the desktop app`);
  } catch (e) {
    console.error(`desktop:install: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
