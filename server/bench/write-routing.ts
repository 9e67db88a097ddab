/** How `bench write` picks a server for each request when several share one database. */
export type WriteRoute = 'rotate' | 'brain';

/**
 * The Brain and the server of write i: Brains in turn; `rotate` sends the writes to the servers in
 * turn, `brain` always sends a Brain's writes to the same server (Brain b to server b mod servers), as
 * a proxy hashing the Brain in the path would.
 */
export function writeTarget(
  i: number,
  brains: number,
  servers: number,
  route: WriteRoute,
): { brain: number; server: number } {
  const brain = i % brains;
  return { brain, server: route === 'brain' ? brain % servers : i % servers };
}
