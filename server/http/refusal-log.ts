import type { KeyRegistryPort } from '../../engine/index.ts';

/**
 * The registry as the HTTP and MCP layers see it, saying in the server's log how many requests it
 * refused: a stranger trying made-up keys, or a client left with a revoked one, is otherwise invisible
 * to whoever runs the server (a 401 writes nothing). One line a window, and only after a refusal; the
 * line names no key, hash or address.
 */
export function loggingRefusals(
  registry: KeyRegistryPort,
  log: (line: string) => void,
  windowMs = 60_000,
): KeyRegistryPort {
  let unknown = 0;
  let revoked = 0;
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    log(
      `refused ${unknown + revoked} request${unknown + revoked === 1 ? '' : 's'} in the last ` +
        `${Math.round(windowMs / 1000)} s for their key: ${unknown} not issued by this server's registry ` +
        `(invalid_api_key), ${revoked} revoked (key_revoked)`,
    );
    unknown = revoked = 0;
  };
  return {
    async byHash(hash) {
      const found = await registry.byHash(hash);
      if (found === null) unknown++;
      else if (found.revoked_at) revoked++;
      else return found;
      if (!timer) (timer = setTimeout(flush, windowMs)).unref();
      return found;
    },
    list: () => registry.list(),
    create: (spec) => registry.create(spec),
    revoke: (idOrKey, visible) => registry.revoke(idOrKey, visible),
  };
}
