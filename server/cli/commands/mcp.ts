import type { Command } from 'commander';
import { apiBaseProblem, defaultBaseUrl } from '../options.ts';

/** Everything a library might print goes to stderr: stdout carries JSON-RPC and nothing else. */
function keepStdoutForJsonRpc(): void {
  const toStderr = (...args: unknown[]) => process.stderr.write(`${args.map(String).join(' ')}\n`);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
}

export function register(program: Command): void {
  program
    .command('mcp')
    .description(
      'MCP server over stdio for one Brain (MNEMO_PROJECT, MNEMO_BRAIN, MNEMO_KEY, MNEMO_URL), through a running server',
    )
    .action(async () => {
      keepStdoutForJsonRpc();
      // A client that goes away mid-write must not crash the bridge with EPIPE.
      process.stdout.on('error', (e) => process.stderr.write(`mnemo mcp: stdout: ${e.message}\n`));
      const { runStdioBridge } = await import('../../mcp/stdio-bridge.ts');
      const { serverDiscovery } = await import('../locate-server.ts');
      const ran = await runStdioBridge({
        env: process.env,
        input: process.stdin,
        output: process.stdout,
        log: (line) => process.stderr.write(`${line}\n`),
        defaultUrl: defaultBaseUrl,
        urlProblem: apiBaseProblem,
        // Without MNEMO_URL the key goes only to a server that proves it is the one its server.json names.
        discovery: serverDiscovery(),
      });
      // stdin closed: the client is gone. Sockets kept alive by fetch must not hold the process open.
      // A bridge that could only refuse (its settings unusable) says so to a host that reads the exit
      // code alone, as a usage error: 2.
      process.exit(ran === 'served' ? 0 : 2);
    });
}
