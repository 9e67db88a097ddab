import { createMnemoClient } from '../client/index.ts';
import { loopbackFetch } from '../client/loopback-fetch.ts';
import { mapLimit } from './bench-server.ts';
import { serveClient } from './client-process.ts';
import { syntheticQuery, syntheticRecord } from './synthetic.ts';

/**
 * The HTTP side of `bench scale`, run in a child process of its own (client-process.ts) so that the RSS
 * the benchmark reports is the server's.
 */
export interface ScaleClientStart {
  type: 'start';
  url: string;
  apiKey: string;
  brain: string;
  records: number;
  queries: number;
  /** Untimed Contexts before the timed ones. */
  warmUp: number;
  threadSize: number;
}

/** Messages from the benchmark (parent) to this client. */
export type ToScaleClient = ScaleClientStart | { type: 'query' };

/** Messages from this client to the benchmark. */
export type FromScaleClient =
  | { type: 'written' }
  | {
      type: 'done';
      /** Each timed createContext, ms. */
      ms: number[];
      /** Trace stage and lane times, by name, one entry per timed Context. */
      stages: [string, number[]][];
      /** How many Contexts each fusion.method ordered. */
      orderedBy: [string, number][];
      /** This process's own peak RSS (the OS's maxRSS), MB. */
      maxRssMb: number;
    };

async function writeAll(
  client: ReturnType<typeof createMnemoClient>,
  o: ScaleClientStart,
  progress: (line: string) => void,
) {
  await client.createBrain({ id: o.brain, name: 'scale benchmark' });
  const batch = 1_000;
  for (let from = 0; from < o.records; from += batch) {
    const ids = Array.from({ length: Math.min(batch, o.records - from) }, (_, j) => from + j);
    await mapLimit(ids, 8, (i) => client.rememberRecord(o.brain, syntheticRecord(i, 1, o.threadSize)));
    progress(`scale: ${from + ids.length}/${o.records} records written`);
  }
}

async function queryAll(client: ReturnType<typeof createMnemoClient>, o: ScaleClientStart) {
  for (let i = 0; i < o.warmUp; i++)
    await client.createContext(o.brain, { query: syntheticQuery(100_000 + i), mode: 'fast' });
  const ms: number[] = [];
  const stages = new Map<string, number[]>();
  const orderedBy = new Map<string, number>();
  const add = (name: string, v: number) => {
    const seen = stages.get(name);
    if (seen) seen.push(v);
    else stages.set(name, [v]);
  };
  for (let i = 0; i < o.queries; i++) {
    const t0 = performance.now();
    const ctx = await client.createContext(o.brain, { query: syntheticQuery(i), mode: 'fast' });
    ms.push(performance.now() - t0);
    // Read after the timed call: each Context's Trace has its stage and lane times.
    const trace = await client.getTrace(o.brain, ctx.context.id);
    for (const [name, v] of Object.entries(trace.timings_ms)) add(name, v);
    for (const lane of trace.lanes) add(`lane:${lane.name}`, lane.ms);
    orderedBy.set(trace.fusion.method, (orderedBy.get(trace.fusion.method) ?? 0) + 1);
  }
  return { ms, stages: [...stages], orderedBy: [...orderedBy] };
}

serveClient<ToScaleClient, FromScaleClient>(async ({ next, send }) => {
  const o = await next();
  if (o.type !== 'start') throw new Error(`scale client: expected start, got ${o.type}`);
  const client = createMnemoClient({
    baseUrl: o.url,
    apiKey: o.apiKey,
    retry: false,
    fetch: loopbackFetch,
  });
  await writeAll(client, o, (line) => send({ type: 'progress', line }));
  send({ type: 'written' });
  await next();
  const result = await queryAll(client, o);
  send({ type: 'done', ...result, maxRssMb: process.resourceUsage().maxRSS / 1024 });
});
