import type { Logger } from '../engine/index.ts';

/** The engine's logger as lines of the server's log: warnings and errors marked, fields as JSON. */
export function lineLogger(log: (line: string) => void): Logger {
  const line = (prefix: string, m: string, f?: Record<string, unknown>) =>
    log(`${prefix}${m}${f ? ` ${JSON.stringify(f)}` : ''}`);
  return {
    info: (m, f) => line('', m, f),
    warn: (m, f) => line('warn: ', m, f),
    error: (m, f) => line('error: ', m, f),
  };
}
