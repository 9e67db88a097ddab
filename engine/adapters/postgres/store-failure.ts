/**
 * PostgreSQL failures of the database rather than of a job: the connection or server is gone or
 * restarting, a transaction lost a serialization or deadlock race, the server is out of disk, memory
 * or connections, or is read-only (a standby after a failover). The same job succeeds once they pass,
 * so the derive worker puts its batch back instead of counting an attempt.
 */
export function storeFailure(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    // SQLSTATE: 08 connection, 53 resources, 57P0x shutdown / cannot connect now.
    if (/^(08|53)/.test(code) || /^57P0[1-3]$/.test(code)) return true;
    if (['40001', '40P01', '55P03', '25006', '57014'].includes(code)) return true;
    // The socket, as node reports it.
    if (/^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN)$/.test(code)) return true;
  }
  const message = e instanceof Error ? e.message : '';
  // pg's own words for a pool that could not connect or a connection that ended under a query.
  return /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/.test(
    message,
  );
}
