import { InvalidArgumentError, Option, type Command } from 'commander';
import {
  FileKeyRegistry,
  hashKey,
  locateDbKey,
  missingBrainWarning,
  openPostgresKeys,
  parseApiKey,
  parseScopes,
  storeFileName,
  storeHasBrain,
  type KeyRegistryPort,
  type Scope,
  type Tenant,
} from '../../../engine/index.ts';
import { Slug } from '../../../engine/contract/common.ts';
import { KeyProject } from '../../../engine/contract/key.ts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defaultDataDir, registryPathFor } from '../../data-dir.ts';
import { bySchema, databaseUrlFromEnv, keyOnCommandLineWarning, postgresUrl } from '../options.ts';

interface Where {
  dataDir?: string;
  keyRegistry?: string;
  databaseUrl?: string;
  /** The data dir's store key, to check a --brain in it (create only). */
  dbKeyFile?: string;
}

/** Whether the store the keys are for holds a Brain, and where that is. */
interface BrainLookup {
  where: string;
  /** A string says why it cannot tell. */
  has(tenant: Tenant, brainId: string): Promise<boolean | string>;
}

interface Registry {
  registry: KeyRegistryPort;
  /** Absent when the registry names no store (a --key-registry file may serve any). */
  brains?: BrainLookup;
  close(): Promise<void>;
}

/** --database-url, or MNEMO_DATABASE_URL unless a file registry is named on the command line. */
function databaseUrlOf(where: Where): string | undefined {
  const fileNamed = where.dataDir !== undefined || where.keyRegistry !== undefined;
  return where.databaseUrl ?? (fileNamed ? undefined : databaseUrlFromEnv());
}

/** A path as a POSIX shell reads it back whole: quoted where it holds more than plain characters. */
const shellWord = (path: string) => (/^[\w./~-]+$/u.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`);

/**
 * The database when one is named (databaseUrlOf), else the registry file a local server reads (the
 * same file, so a server running on it sees each change).
 */
async function registryFrom(where: Where, create: boolean): Promise<Registry> {
  const url = databaseUrlOf(where);
  if (url !== undefined) {
    const db = await openPostgresKeys(url, { create });
    return { ...db, brains: { where: 'the database', has: db.hasBrain } };
  }
  const path = where.keyRegistry ?? registryPathFor(where.dataDir ?? defaultDataDir());
  const registry = create ? FileKeyRegistry.ensure(path) : new FileKeyRegistry(path);
  if (where.keyRegistry !== undefined) return { registry, close: async () => {} };
  const dataDir = where.dataDir ?? defaultDataDir();
  return {
    registry,
    brains: { where: dataDir, has: storeLookup(dataDir, where.dbKeyFile) },
    close: async () => {},
  };
}

/**
 * The data dir's store, read with its key where this user's environment has it (MNEMO_DB_KEY,
 * --db-key-file, the config dir); why not when it cannot be read (no key here: the desktop app keeps
 * its own in the system keychain).
 */
function storeLookup(dataDir: string, dbKeyFile: string | undefined): BrainLookup['has'] {
  return async (tenant, brainId) => {
    let keyless = false;
    const key = () => {
      try {
        return locateDbKey({ dbKeyFile, create: false, dataDir }).key;
      } catch (e) {
        keyless = true;
        throw e;
      }
    };
    try {
      return await storeHasBrain({ dataDir, key, tenant, brainId });
    } catch (e) {
      // Said short: locateDbKey's own words are for a server that cannot start without the key.
      return keyless
        ? "its store's key is not here: give --db-key-file or set MNEMO_DB_KEY"
        : (e as Error).message;
    }
  };
}

/** The data dir whose registry WHERE names (none for a database's or a --key-registry named). */
const dataDirRegistry = (where: Where): string | undefined =>
  databaseUrlOf(where) !== undefined || where.keyRegistry !== undefined
    ? undefined
    : (where.dataDir ?? defaultDataDir());

/**
 * Says so, and is true, where the data dir has no registry to list: one with a store and no registry
 * yet (restored onto a new machine, or never given a key) has no keys, and how to make one is said
 * (exit 0); one with neither is no Mnemo's (exit 1). A --key-registry named is read as given.
 */
function reportedNoRegistry(where: Where): boolean {
  const dataDir = dataDirRegistry(where);
  if (dataDir === undefined || existsSync(registryPathFor(dataDir))) return false;
  if (!existsSync(join(dataDir, storeFileName))) {
    console.error(
      `mnemo keys list: no Mnemo store in ${dataDir}: give the --data-dir that \`mnemo serve\` uses`,
    );
    process.exitCode = 1;
    return true;
  }
  sayNoKeysYet(dataDir);
  return true;
}

const sayNoKeysYet = (dataDir: string) =>
  console.error(
    `mnemo keys list: no keys yet in ${dataDir}: \`mnemo keys create --project local --env live --data-dir ${shellWord(dataDir)}\` makes one`,
  );

async function withRegistry(
  where: Where,
  create: boolean,
  use: (r: KeyRegistryPort, brains: BrainLookup | undefined) => Promise<void>,
): Promise<void> {
  const { registry, brains, close } = await registryFrom(where, create);
  try {
    await use(registry, brains);
  } finally {
    await close();
  }
}

// The spec writes them as alternatives ([--data-dir DIR | --key-registry PATH]): given both, one would be
// silently ignored, and a key minted into a registry the server does not read.
const whereOptions = (cmd: Command) =>
  cmd
    .addOption(
      new Option(
        '--data-dir <dir>',
        'the data dir whose registry to use (default: the per-user data directory)',
      ).conflicts('keyRegistry'),
    )
    .addOption(new Option('--key-registry <path>', 'a registry file instead of <data-dir>/keys.json'))
    .addOption(
      new Option(
        '--database-url <url>',
        "a hosted Mnemo's PostgreSQL database (postgres://...; also MNEMO_DATABASE_URL)",
      )
        .argParser(postgresUrl)
        .conflicts(['dataDir', 'keyRegistry']),
    );

/** An empty list is refused: it would otherwise read as "not given" and issue all six scopes. */
function scopeList(value: string): Scope[] {
  let scopes: Scope[];
  try {
    scopes = parseScopes(value);
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message);
  }
  if (scopes.length === 0) {
    throw new InvalidArgumentError('name at least one scope (leave --scopes out for all six)');
  }
  return scopes;
}

export function register(program: Command): void {
  const keys = program
    .command('keys')
    .description('create, revoke and list API keys (the registry keeps only hashes)');

  whereOptions(
    keys
      .command('create')
      .description('mint a key; prints it alone on one line (it is not stored and cannot be shown again)')
      .requiredOption('--project <project>', 'project the key selects', bySchema(KeyProject))
      .addOption(new Option('--env <env>', 'namespace').choices(['test', 'live']).makeOptionMandatory())
      .option('--scopes <list>', 'comma-separated scopes (default: all six)', scopeList)
      .option('--brain <brain>', 'bind the key to one Brain (needed for hosted /mcp)', bySchema(Slug))
      .option('--label <label>', 'a note to recognise the key by')
      .option('--admin', 'may manage keys over /v1/keys', false)
      .addOption(
        new Option(
          '--db-key-file <path>',
          "the data dir's database key, to check that --brain is there (else MNEMO_DB_KEY, else the config dir's)",
        ).conflicts(['keyRegistry', 'databaseUrl']),
      ),
  ).action(
    async (
      o: Where & {
        project: string;
        env: 'test' | 'live';
        scopes?: Scope[];
        brain?: string;
        label?: string;
        admin: boolean;
      },
    ) => {
      await withRegistry(o, true, async (registry, brains) => {
        // Asked first, said after the key: a typo'd Brain would otherwise make a key that reaches nothing,
        // silently. Not refused: a key bound to a Brain may create it (mnemo import does), so one made
        // before its Brain is right.
        const found =
          o.brain !== undefined && brains !== undefined
            ? await brains.has({ project: o.project, env: o.env }, o.brain)
            : true;
        const { key } = await registry.create({
          env: o.env,
          project: o.project,
          scopes: o.scopes,
          brain: o.brain,
          label: o.label,
          admin: o.admin,
        });
        process.stdout.write(`${key}\n`);
        if (found === false)
          console.error(
            `mnemo keys create: warning: ${missingBrainWarning({ brain: o.brain!, project: o.project, env: o.env, where: brains!.where })}`,
          );
        else if (typeof found === 'string')
          console.error(
            `mnemo keys create: note: did not check that Brain "${o.brain!}" is in ${brains!.where} (${found}); the key is bound to it all the same`,
          );
      });
    },
  );

  whereOptions(
    keys
      .command('revoke')
      .description('revoke a key (the whole key or its registry id); effective on the next request')
      .argument('<key>'),
  ).action(async (key: string, o: Where) => {
    if (parseApiKey(key))
      keyOnCommandLineWarning('keys revoke', 'a whole key', 'give its id instead (mnemo keys list shows it)');
    await withRegistry(o, false, async (registry) => {
      // Read first: whether this call revoked the key is the registry's word, not a comparison of clocks.
      const earlier = parseApiKey(key)
        ? await registry.byHash(hashKey(key))
        : ((await registry.list()).find((e) => e.id === key) ?? null);
      const entry = await registry.revoke(key);
      if (!entry) {
        console.error('mnemo keys revoke: no such key in the registry');
        process.exitCode = 1;
        return;
      }
      const named = `${entry.prefix}_…${entry.last4} (${entry.id})`;
      // Revoking again changes nothing, so it succeeds, but says when the key actually stopped working.
      if (earlier?.revoked_at) console.error(`${named} was already revoked at ${earlier.revoked_at}`);
      else console.error(`revoked ${named}`);
    });
  });

  whereOptions(keys.command('list').description('list keys: prefix, last four, scopes, binding, state'))
    .option('--json', 'one JSON object per key')
    .action(async (o: Where & { json?: boolean }) => {
      if (reportedNoRegistry(o)) return;
      await withRegistry(o, false, async (registry) => {
        const entries = await registry.list();
        // The server writes an empty registry at its first start, so a store restored onto a new
        // machine and served once has one: it has no keys all the same, and says so.
        const dataDir = dataDirRegistry(o);
        if (entries.length === 0 && dataDir !== undefined) sayNoKeysYet(dataDir);
        for (const e of entries) {
          if (o.json) {
            const { hash: _hash, ...shown } = e;
            process.stdout.write(`${JSON.stringify(shown)}\n`);
            continue;
          }
          const state = e.revoked_at ? `revoked ${e.revoked_at}` : 'active';
          process.stdout.write(
            `${e.id}  ${e.prefix}_…${e.last4}  ${state}  scopes=${e.scopes.join(',')}${e.brain ? `  brain=${e.brain}` : ''}${e.admin ? '  admin' : ''}${e.label ? `  "${e.label}"` : ''}\n`,
          );
        }
      });
    });
}
