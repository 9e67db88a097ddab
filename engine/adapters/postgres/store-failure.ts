import type { MnemoError } from '../../errors/mnemo-error.ts';
import { storeUnavailableError } from '../../errors/store-unavailable.ts';

/**
 * PostgreSQL failures of the database rather than of a job: the connection or server is gone or
 * restarting, a transaction lost a serialization or deadlock race, the server is out of disk, memory
 * or connections, or is read-only (a standby after a failover). The same job succeeds once they pass,
 * so the derive worker puts its batch back instead of counting an attempt.
 */
export function storeFailure(e: unknown): boolean {
  if (unreachable(e) || poolBusy(e)) return true;
  const code = (e as { code?: unknown } | null)?.code;
  // SQLSTATE 53: out of resources; then serialization, deadlock, lock not available, read-only
  // transaction, statement cancelled.
  return (
    typeof code === 'string' &&
    (/^53/.test(code) || ['40001', '40P01', '55P03', '25006', '57014'].includes(code))
  );
}

/**
 * A failure that says the server cannot be reached at all (refused, reset, shut down, not accepting
 * connections yet), as against one statement's failure or a lost race: what an operator is told of once
 * per outage.
 */
export function unreachable(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    // SQLSTATE 08: connection exception; 57P01-03: shutdown, crash shutdown, cannot connect now.
    if (/^08/.test(code) || /^57P0[1-3]$/.test(code)) return true;
    // Refused as a new connection opens: its database is gone (3D000, dropped or being restored) or its
    // role or password no longer let it in (28000, 28P01, rotated credentials). No statement of this
    // server raises them once connected, and GET /v1/health already calls them an outage: a request
    // answered internal_error with a stack each meanwhile, and the operator was never told once.
    if (['3D000', '28000', '28P01'].includes(code)) return true;
    // The same, raised while the server sets its new session up (postinit.c, whatever the language
    // of its messages): the database takes no connections now (ALLOW_CONNECTIONS false, as for
    // maintenance: 55000) or the role may no longer CONNECT to it (42501). Out of connections (53300,
    // raised there too) is an overload instead.
    if ((e as { file?: unknown }).file === 'postinit.c' && !/^53/.test(code)) return true;
    if (/^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)$/.test(code))
      return true;
    // Through a Unix socket (?host=/dir), what a stopped server leaves is no socket file (ENOENT: it
    // removes it on shutdown, and a restart makes it anew) and what a socket this process may not open
    // says is EACCES (unix_socket_permissions or the directory's): the database refusing this server's
    // connections, as 28000 is. Only from connect: the same codes from reading an sslrootcert the URL
    // names are a mistake in the URL, not an outage.
    if ((code === 'ENOENT' || code === 'EACCES') && (e as { syscall?: unknown }).syscall === 'connect')
      return true;
  }
  const message = e instanceof Error ? e.message : '';
  return /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/.test(
    message,
  );
}

/**
 * An operation that failed because the database cannot be reached: a known failure that passes by
 * itself, not an unhandled one. A write cut off at its COMMIT may have been applied, hence the advice.
 */
export function storeUnavailable(cause: unknown): MnemoError {
  return storeUnavailableError(
    'The database cannot be reached now (down, restarting or failing over): retry once after a pause',
    cause,
  );
}

/** Every connection of this process's pool stayed in use past the pool's wait (client.ts). */
export function poolBusy(e: unknown): boolean {
  return (e as { code?: unknown } | null)?.code === 'MNEMO_POOL_BUSY';
}

/**
 * The database answers but cannot take the work now: this process's connections all stayed busy, or
 * the server is out of connections, memory or disk (SQLSTATE 53).
 */
export function overloaded(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return poolBusy(e) || (typeof code === 'string' && /^53/.test(code));
}

/** A statement the database cancelled: past a statement_timeout, or an operator's pg_cancel_backend. */
export function cancelled(e: unknown): boolean {
  return (e as { code?: unknown } | null)?.code === '57014';
}

/**
 * A failure of the store as the caller is told of it: an outage, an overload or a cancelled statement
 * is store_unavailable (one line in the log, no stack: nothing in Mnemo failed).
 */
export function asStoreError(e: unknown): unknown {
  if (unreachable(e)) return storeUnavailable(e);
  if (cancelled(e))
    return storeUnavailableError(
      'The database cancelled a statement of this request (it ran past its time limit, or an operator ' +
        'cancelled it): retry once after a pause',
      e,
    );
  if (!overloaded(e)) return e;
  return storeUnavailableError(
    'The database is overloaded now (every connection this server holds to it is busy, or it is out of ' +
      'connections, memory or disk): retry once after a pause',
    e,
  );
}
