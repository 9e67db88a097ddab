import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileKeyRegistry } from '../../../engine/auth/key-registry.ts';
import { startServer } from '../../start-server.ts';

// Started by mcp-on-first-use.test.ts under the loaded-modules hook: says whether the MCP SDK was
// loaded once the server listened, after a refused /mcp request, and after an answered one.
const sdkLoaded = () =>
  readFileSync(process.env.MNEMO_LOADED_LOG!, 'utf8').includes('/@modelcontextprotocol/sdk/');

const dir = mkdtempSync(join(tmpdir(), 'mnemo-mcp-first-use-'));
FileKeyRegistry.ensure(join(dir, 'keys.json'));
const server = await startServer({ engine: 'reference', port: 0, keyRegistry: join(dir, 'keys.json') });
try {
  const atStart = sdkLoaded();
  const mcp = new URL('/mcp', server.url);
  const refused = await fetch(mcp, { method: 'POST' });
  await refused.arrayBuffer();
  const afterRefused = sdkLoaded();
  const key = (await server.registry!.create({ env: 'test', project: 'app', brain: 'notes' })).key;
  const answered = await fetch(mcp, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
  const body = (await answered.json()) as { result?: { serverInfo?: unknown } };
  console.log(
    JSON.stringify({
      atStart,
      refusedStatus: refused.status,
      afterRefused,
      answeredStatus: answered.status,
      initialized: body.result?.serverInfo !== undefined,
      afterAnswered: sdkLoaded(),
    }),
  );
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
