import { InvalidArgumentError, Option, type Command } from 'commander';
import { locomoTurnForms, type LocomoTurnForm } from '../../bench/locomo-data.ts';
import type { BenchEngine } from '../../bench/bench-server.ts';
import type { WriteRoute } from '../../bench/write-routing.ts';
import { nonNegativeInt, postgresUrl } from '../options.ts';

/** JSON lines on stdout (the fixed output of cli-and-harness.md); progress on stderr. */
const out = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);
const progress = (line: string) => {
  if (process.env.MNEMO_LOG !== 'silent') process.stderr.write(`${line}\n`);
};

function kList(value: string): number[] {
  const ks = value.split(',').map((s) => Number(s.trim()));
  if (ks.length === 0 || ks.some((k) => !Number.isInteger(k) || k < 1))
    throw new InvalidArgumentError('must be a comma-separated list of positive integers');
  return ks;
}

function positiveInt(value: string): number {
  const n = nonNegativeInt(value);
  if (n < 1) throw new InvalidArgumentError('must be at least 1');
  return n;
}

const engineOption = () =>
  new Option('--engine <engine>', 'engine under test')
    .choices(['local', 'reference', 'postgres'])
    .default('local');
const databaseOption = () =>
  new Option(
    '--database-url <url>',
    "the postgres engine's database, postgres://... (a scratch one: the bench writes into it); " +
      'without it, PGlite in this process',
  ).argParser(postgresUrl);
const modelOption = () =>
  new Option(
    '--embedding-model <dir>',
    'sentence-transformers ONNX model directory (default: the offline embedder)',
  );

/** `mnemo bench locomo|scale|write|sync|import`: each starts its own servers on 127.0.0.1 over temp data dirs. */
export function register(program: Command): void {
  const bench = program
    .command('bench')
    .description(
      'benchmarks: retrieval quality (locomo), scale, write throughput, sync and import rates (JSON lines)',
    );

  bench
    .command('locomo')
    .description('LoCoMo retrieval: frac/any/all@k per category, createContext latency, ingest time')
    .requiredOption('--data <file>', 'a file in LoCoMo format (e.g. ../shared/data/locomo/locomo-dev.json)')
    .option('--k <list>', 'cut-offs, in addition to the fixed 5, 10 and 25', kList, [])
    .addOption(engineOption())
    .addOption(databaseOption())
    .addOption(modelOption())
    .addOption(
      new Option('--mode <mode>', 'createContext mode').choices(['fast', 'thorough']).default('fast'),
    )
    .addOption(
      new Option('--turns-as <form>', 'store each turn as a message (speaker, thread) or as a dated document')
        .choices(locomoTurnForms)
        .default('messages'),
    )
    .option('--limit <n>', 'only the first n conversations', positiveInt)
    .option('--dump <file>', 'write one JSON line per question (evidence, ranked turns, misses at 10)')
    .action(
      async (f: {
        data: string;
        k: number[];
        engine: BenchEngine;
        databaseUrl?: string;
        embeddingModel?: string;
        mode: 'fast' | 'thorough';
        turnsAs: LocomoTurnForm;
        limit?: number;
        dump?: string;
      }) => {
        // The benchmarks load the engine: only when one runs, not with the command line.
        const { runLocomo } = await import('../../bench/locomo-bench.ts');
        await runLocomo({
          data: f.data,
          ks: f.k,
          engine: f.engine,
          databaseUrl: f.databaseUrl,
          embeddingModel: f.embeddingModel,
          mode: f.mode,
          turnsAs: f.turnsAs,
          limit: f.limit,
          dump: f.dump,
          out,
          progress,
        });
      },
    );

  bench
    .command('scale')
    .description('createContext fast latency and peak RSS over a Brain of N synthetic Records')
    .option('--records <n>', 'Records in the Brain', positiveInt, 100_000)
    .option('--queries <n>', 'timed createContext calls', positiveInt, 300)
    .option('--thread-size <n>', 'messages per chat thread (0: no threads)', nonNegativeInt, 0)
    .addOption(engineOption())
    .addOption(databaseOption())
    .addOption(modelOption())
    .action(
      async (f: {
        records: number;
        queries: number;
        threadSize: number;
        engine: BenchEngine;
        databaseUrl?: string;
        embeddingModel?: string;
      }) => {
        const { runScale } = await import('../../bench/scale-bench.ts');
        await runScale({ ...f, out, progress });
      },
    );

  bench
    .command('write')
    .description('rememberRecord throughput over HTTP, and derive throughput')
    .option('--records <n>', 'Records to write', positiveInt, 2_000)
    .option('--concurrency <n>', 'requests in flight', positiveInt, 8)
    .option(
      '--processes <n>',
      'server processes on one database, requests spread over them (--engine postgres with --database-url)',
      positiveInt,
      1,
    )
    .option('--brains <n>', 'Brains the Records are spread over, one after another', positiveInt, 1)
    .addOption(
      new Option(
        '--route <how>',
        'which process a request goes to: each in turn, or always the one its Brain is given to (as a proxy hashing the Brain would)',
      )
        .choices(['rotate', 'brain'])
        .default('rotate'),
    )
    .addOption(engineOption())
    .addOption(databaseOption())
    .addOption(modelOption())
    .action(
      async (f: {
        records: number;
        concurrency: number;
        processes: number;
        brains: number;
        route: WriteRoute;
        engine: BenchEngine;
        databaseUrl?: string;
        embeddingModel?: string;
      }) => {
        const { runWrite } = await import('../../bench/write-bench.ts');
        await runWrite({ ...f, out, progress });
      },
    );

  bench
    .command('sync')
    .description("sync A -> hosted H -> B: push and pull records/s, time until B answers from A's last write")
    .option('--records <n>', 'shareable Records on A', positiveInt, 10_000)
    .option('--concurrency <n>', 'write requests in flight while A is filled', positiveInt, 8)
    .addOption(
      new Option('--engine <engine>', "the hosted H's engine (the devices are local)")
        .choices(['local', 'postgres'])
        .default('local'),
    )
    .addOption(databaseOption())
    .action(
      async (f: {
        records: number;
        concurrency: number;
        engine: 'local' | 'postgres';
        databaseUrl?: string;
      }) => {
        const { runSyncBench } = await import('../../bench/sync-bench.ts');
        await runSyncBench({ ...f, out, progress });
      },
    );

  bench
    .command('import')
    .description('importer throughput: a synthetic WhatsApp export through /v1, derivation included')
    .option('--messages <n>', 'messages in the export', positiveInt, 10_000)
    .option('--concurrency <n>', 'requests in flight', positiveInt, 8)
    .addOption(engineOption())
    .addOption(databaseOption())
    .addOption(modelOption())
    .action(
      async (f: {
        messages: number;
        concurrency: number;
        engine: BenchEngine;
        databaseUrl?: string;
        embeddingModel?: string;
      }) => {
        const { runImportBench } = await import('../../bench/import-bench.ts');
        await runImportBench({ ...f, out, progress });
      },
    );
}
