import Database from 'better-sqlite3-multiple-ciphers';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SqliteBindingError } from './sqlite-binding-error.ts';

export { SqliteBindingError, type BindingFailureCause } from './sqlite-binding-error.ts';

/**
 * Which compiled SQLite binding a process loads. better-sqlite3-multiple-ciphers is a NAN addon: built
 * for one NODE_MODULE_VERSION, it loads in no other. `npm ci` builds it for Node (the CLI, `mnemo
 * serve`) in the package's own build/Release; Electron embeds another Node, so `npm run desktop:install`
 * builds a second copy for Electron's ABI beside it (electronBuildPath), which the desktop app opens.
 * A packaged app has one build only, rebuilt for its Electron by electron-builder in the usual place.
 */
export interface SqliteRuntime {
  /** process.versions.electron, or null under plain Node. */
  electron: string | null;
  /** process.versions.modules: the NODE_MODULE_VERSION this runtime loads. */
  modules: string;
  platform: string;
  arch: string;
}

export type BindingChoice =
  /** The package's own build (build/Release), found by the package itself. */
  | { kind: 'default' }
  | { kind: 'file'; path: string }
  /** The build this runtime needs is not there; loading the other one would fail on its ABI. */
  | { kind: 'missing'; path: string };

export const bindingPackage = 'better-sqlite3-multiple-ciphers';
export const nodeRebuildCommand = `npm rebuild ${bindingPackage}`;
export const desktopInstallCommand = 'npm run desktop:install';

export function currentRuntime(): SqliteRuntime {
  return {
    electron: process.versions.electron ?? null,
    modules: process.versions.modules,
    platform: process.platform,
    arch: process.arch,
  };
}

/** Where desktop:install puts the build for an Electron runtime (inside the package: `npm ci` clears it with it). */
export function electronBuildPath(packageDir: string, runtime: Omit<SqliteRuntime, 'electron'>): string {
  return join(
    packageDir,
    'electron-build',
    `${runtime.platform}-${runtime.arch}-abi${runtime.modules}`,
    'better_sqlite3.node',
  );
}

/** True for a package inside a packaged app's asar (Electron maps its .node files to app.asar.unpacked). */
export function isPackagedPath(path: string): boolean {
  return /[\\/]app\.asar[\\/]/.test(path);
}

export function chooseSqliteBinding(input: {
  runtime: SqliteRuntime;
  packageDir: string;
  exists: (path: string) => boolean;
}): BindingChoice {
  const { runtime, packageDir } = input;
  if (runtime.electron === null) return { kind: 'default' };
  const path = electronBuildPath(packageDir, runtime);
  if (input.exists(path)) return { kind: 'file', path };
  if (isPackagedPath(packageDir)) return { kind: 'default' };
  return { kind: 'missing', path };
}

function fixFor(runtime: SqliteRuntime, packageDir: string): string | null {
  if (runtime.electron === null) return nodeRebuildCommand;
  return isPackagedPath(packageDir) ? null : desktopInstallCommand;
}

function runtimeName(runtime: SqliteRuntime): string {
  const name = runtime.electron === null ? 'Node' : `Electron ${runtime.electron}`;
  return `${name} (NODE_MODULE_VERSION ${runtime.modules})`;
}

function withFix(text: string, fix: string | null): string {
  return fix
    ? `${text}. Run \`${fix}\` in Mnemo's folder to fix it; the store is untouched.`
    : `${text}. Install Mnemo again to fix it; the store is untouched.`;
}

// Node's own wording (src/node_binding.cc), which Electron keeps: "...using\nNODE_MODULE_VERSION 115. This
// version of Node.js requires\nNODE_MODULE_VERSION 145. Please try re-compiling...".
const abiPattern = /NODE_MODULE_VERSION (\d+)\. This version of \S+ requires\s+NODE_MODULE_VERSION (\d+)/;

/**
 * Names why loading the binding failed and what fixes it, or null when `error` is not a failure to
 * load it (a database error is the caller's to report as it is).
 */
export function explainBindingFailure(
  error: unknown,
  context: { runtime: SqliteRuntime; packageDir: string; choice: BindingChoice },
): SqliteBindingError | null {
  const { runtime, packageDir, choice } = context;
  const fix = fixFor(runtime, packageDir);
  const prefix = `The database module (${bindingPackage}) cannot load in ${runtimeName(runtime)}`;
  if (choice.kind === 'missing') {
    return new SqliteBindingError(
      withFix(`${prefix}: its build for this runtime is missing (${choice.path})`, fix),
      'missing',
      fix,
    );
  }
  if (!(error instanceof Error)) return null;
  const code = (error as NodeJS.ErrnoException).code;
  const abi = abiPattern.exec(error.message);
  if (abi) {
    const builtFor = Number(abi[1]);
    const needed = Number(abi[2]);
    return new SqliteBindingError(
      withFix(
        `${prefix}: it was built for NODE_MODULE_VERSION ${builtFor}, and this runtime needs ${needed}`,
        fix,
      ),
      'abi-mismatch',
      fix,
      { builtFor, needed },
    );
  }
  const missingFile =
    error.message.includes('Could not locate the bindings file') ||
    (code === 'MODULE_NOT_FOUND' && error.message.includes('.node')) ||
    (code === 'ERR_DLOPEN_FAILED' && /No such file|cannot open shared object|not found/i.test(error.message));
  if (missingFile) {
    return new SqliteBindingError(
      withFix(`${prefix}: its compiled file is missing (${firstLine(error.message)})`, fix),
      'missing',
      fix,
    );
  }
  if (code === 'ERR_DLOPEN_FAILED') {
    return new SqliteBindingError(withFix(`${prefix}: ${firstLine(error.message)}`, fix), 'unloadable', fix);
  }
  return null;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]!.trim();
}

let resolved: { packageDir: string; choice: BindingChoice } | null = null;

function binding(): { packageDir: string; choice: BindingChoice } {
  resolved ??= (() => {
    const packageDir = dirname(createRequire(import.meta.url).resolve(`${bindingPackage}/package.json`));
    return {
      packageDir,
      choice: chooseSqliteBinding({ runtime: currentRuntime(), packageDir, exists: existsSync }),
    };
  })();
  return resolved;
}

/**
 * Every connection of the engine is made here, with the binding this runtime loads. A binding that
 * cannot load is a SqliteBindingError naming the cause and the fix, raised before any file is opened.
 */
/**
 * The compiled binding `newDatabase` loads, as better-sqlite3's `nativeBinding` option (undefined: the
 * package's own build), for a connection opened in a worker thread, which must load the same one.
 */
export function nativeBindingPath(): string | undefined {
  const { choice } = binding();
  return choice.kind === 'file' ? choice.path : undefined;
}

export function newDatabase(file: string, options: Database.Options = {}): Database.Database {
  const { packageDir, choice } = binding();
  const context = { runtime: currentRuntime(), packageDir, choice };
  if (choice.kind === 'missing') throw explainBindingFailure(null, context)!;
  try {
    return new Database(file, choice.kind === 'file' ? { ...options, nativeBinding: choice.path } : options);
  } catch (e) {
    const explained = explainBindingFailure(e, context);
    if (!explained) throw e;
    explained.cause = e;
    throw explained;
  }
}

/** Loads the binding once, so a start-up fails on it before it creates or opens anything. */
export function assertSqliteBindingLoads(): void {
  newDatabase(':memory:').close();
}
