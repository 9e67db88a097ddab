import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * A benchmark's HTTP client in a child process of its own, so that what the benchmark reports of its
 * process (RSS, CPU) is the server's: sharing a process, the client's requests, responses and their
 * garbage lived in the server's V8 heap, and its HTTP stack took the server's CPU.
 *
 * The parent forks the client's module (`forkClient`), which runs `serveClient`: both sides exchange
 * typed messages over IPC, beside three every client sends (ready, progress, error).
 */
export type ClientEnvelope =
  { type: 'ready' } | { type: 'progress'; line: string } | { type: 'error'; message: string };

export interface ClientProcess<To, From extends { type: string }> {
  send(m: To): void;
  /** The client's next reply, which must be `type`; rejects on its error or exit. */
  next<T extends From['type']>(type: T): Promise<Extract<From, { type: T }>>;
  close(): void;
}

/** Forks the client module and waits until it has loaded (its start-up is not the benchmark's). */
export async function forkClient<To, From extends { type: string }>(
  module: URL,
  name: string,
  progress: (line: string) => void,
): Promise<ClientProcess<To, From>> {
  // No execArgv: the benchmark's own flags (--cpu-prof, --heap-prof, V8 heap settings) are for the server.
  const child = fork(fileURLToPath(new URL('./client-entry.mjs', import.meta.url)), [module.href], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let waiting: { type: string; resolve: (m: From) => void; reject: (e: Error) => void } | null = null;
  let failure: Error | null = null;
  const fail = (e: Error) => {
    failure ??= e;
    waiting?.reject(failure);
    waiting = null;
  };
  child.on('message', (raw) => {
    const m = raw as From | ClientEnvelope;
    if (m.type === 'progress') progress((m as { line: string }).line);
    else if (m.type === 'error') fail(new Error(`${name}: ${(m as { message: string }).message}`));
    else if (waiting && m.type === waiting.type) {
      waiting.resolve(m as From);
      waiting = null;
    } else fail(new Error(`${name}: unexpected ${m.type}`));
  });
  child.on('error', fail);
  // 'close', not 'exit': a process may exit before its last messages (its error) have been read.
  child.on('close', (code, signal) => fail(new Error(`${name} exited (${signal ?? code})`)));
  const next = <T extends string>(type: T) =>
    failure
      ? Promise.reject(failure)
      : new Promise<never>((resolve, reject) => {
          waiting = { type, resolve: (m) => resolve(m as never), reject };
        });
  await next('ready');
  return {
    send: (m) => child.send(m as object),
    next,
    close: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    },
  };
}

export interface ClientIo<To, From> {
  /** The parent's next message. */
  next(): Promise<To>;
  send(m: From | ClientEnvelope): void;
}

/** The child's side: runs `main` once the parent is listening, then disconnects (or reports its error). */
export function serveClient<To, From>(main: (io: ClientIo<To, From>) => Promise<void>): void {
  // An orphan (the benchmark killed) has nobody to write for. A Ctrl-C reaches the whole process group:
  // the benchmark handles it (stops its server, removes its temp dir, ends by the signal) and this
  // process ends when it does, so the benchmark never sees its client die first.
  let ending = false;
  process.on('disconnect', () => {
    if (!ending) process.exit(1);
  });
  for (const signal of ['SIGINT', 'SIGHUP'] as const) process.on(signal, () => {});
  // Messages are queued as they arrive: the parent may answer `ready` before `main` asks for it.
  const queue: To[] = [];
  let waiter: ((m: To) => void) | null = null;
  process.on('message', (m) => {
    if (waiter) {
      const w = waiter;
      waiter = null;
      w(m as To);
    } else queue.push(m as To);
  });
  // Sent in order; disconnecting before the last has been written would cut a large one (a result of
  // thousands of timings) short, and the benchmark would see only that its client exited.
  let sent = Promise.resolve();
  const send = (m: From | ClientEnvelope) => {
    sent = new Promise<void>((resolve) => {
      if (!process.send) resolve();
      else process.send(m, () => resolve());
    });
  };
  const end = async () => {
    await sent;
    ending = true;
    process.disconnect();
  };
  const next = () => {
    const m = queue.shift();
    return m !== undefined ? Promise.resolve(m) : new Promise<To>((resolve) => (waiter = resolve));
  };
  send({ type: 'ready' });
  main({ next, send }).then(end, async (e: unknown) => {
    send({ type: 'error', message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    process.exitCode = 1;
    await end();
  });
}
