import { createMnemoClient } from '../client/index.ts';
import { loopbackFetch } from '../client/loopback-fetch.ts';
import { mapLimit } from './bench-server.ts';
import { serveClient } from './client-process.ts';
import { syntheticRecord } from './synthetic.ts';
import { writeTarget, type WriteRoute } from './write-routing.ts';

/** The HTTP side of `bench write`, run in a child process of its own (client-process.ts). */
export interface WriteClientStart {
  type: 'start';
  /** Servers to spread the writes over, each in turn (one for a single process). */
  urls: string[];
  apiKey: string;
  /** Record i goes to brains[i mod brains.length]. */
  brains: string[];
  /** `rotate`: request i to urls[i mod urls.length]; `brain`: to the server its Brain is given to. */
  route: WriteRoute;
  records: number;
  concurrency: number;
}

/** Messages from the benchmark (parent) to this client. */
export type ToWriteClient = WriteClientStart;

/** Messages from this client to the benchmark. */
export type FromWriteClient = {
  type: 'done';
  /** Each rememberRecord's round trip, ms. */
  ms: number[];
  /** From the first write sent until the last acknowledged, s. */
  writeS: number;
  /** This process's own peak RSS (the OS's maxRSS), MB. */
  maxRssMb: number;
  /** This process's CPU (user + system) over the same span as writeS, s. */
  cpuS: number;
};

serveClient<ToWriteClient, FromWriteClient>(async ({ next, send }) => {
  const o = await next();
  const clients = o.urls.map((baseUrl) =>
    createMnemoClient({ baseUrl, apiKey: o.apiKey, retry: false, fetch: loopbackFetch }),
  );
  for (const brain of o.brains) await clients[0]!.createBrain({ id: brain, name: 'write benchmark' });
  const ids = Array.from({ length: o.records }, (_, i) => i);
  const ms: number[] = [];
  const started = performance.now();
  const cpu = process.cpuUsage();
  await mapLimit(ids, o.concurrency, async (i) => {
    const body = syntheticRecord(i, 3);
    const t0 = performance.now();
    const to = writeTarget(i, o.brains.length, clients.length, o.route);
    await clients[to.server]!.rememberRecord(o.brains[to.brain]!, body);
    ms.push(performance.now() - t0);
  });
  const writeS = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuS = (used.user + used.system) / 1e6;
  send({ type: 'done', ms, writeS, maxRssMb: process.resourceUsage().maxRSS / 1024, cpuS });
});
