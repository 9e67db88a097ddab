import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `mnemo serve` processes beside the benchmark's own server, on the same PostgreSQL database. */
export interface ExtraServers {
  urls: string[];
  /** CPU seconds (user + system) the processes used so far, read from /proc (0 where there is none). */
  cpuS(): number;
  close(): Promise<void>;
}

const bin = fileURLToPath(new URL('../../bin/mnemo.mjs', import.meta.url));
/** Linux reports utime and stime in clock ticks, 100 a second on every platform Node runs on. */
const ticksPerS = 100;

function cpuOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    // Fields after the command name, which is in parentheses and may hold spaces.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerS;
  } catch {
    return 0;
  }
}

/**
 * Starts `count` servers of the postgres engine on `databaseUrl` (port 0, no rate limit, UTC), each
 * its own process, and waits until each listens. They share the database's key registry, so the key
 * the benchmark minted is theirs too.
 */
export async function startExtraServers(
  count: number,
  databaseUrl: string,
  dataDir: (i: number) => string,
): Promise<ExtraServers> {
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once('exit', () => resolve());
            c.kill('SIGTERM');
          }),
      ),
    );
  };
  try {
    const urls = await Promise.all(
      Array.from({ length: count }, (_, i) => {
        const child = spawn(
          process.execPath,
          [
            bin,
            'serve',
            '--engine',
            'postgres',
            '--database-url',
            databaseUrl,
            '--port',
            '0',
            '--rate-limit',
            '0',
            '--time-zone',
            'UTC',
            '--data-dir',
            dataDir(i),
          ],
          { env: { ...process.env, MNEMO_LOG: 'silent' }, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        children.push(child);
        return new Promise<string>((resolve, reject) => {
          let out = '';
          let err = '';
          child.stdout!.on('data', (d: Buffer) => {
            out += d.toString();
            const url = /listening on (\S+)/.exec(out)?.[1];
            if (url) resolve(url);
          });
          child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
          child.on('exit', (code, signal) =>
            reject(new Error(`server ${i + 2} exited (${signal ?? code}) before listening: ${err.trim()}`)),
          );
        });
      }),
    );
    return {
      urls,
      cpuS: () => children.reduce((s, c) => s + cpuOf(c.pid), 0),
      close: stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
