import { Command, CommanderError } from 'commander';
import { register as registerBench } from './commands/bench.ts';
import { register as registerImport } from './commands/import.ts';
import { register as registerKeys } from './commands/keys.ts';
import { register as registerMcp } from './commands/mcp.ts';
import { register as registerServe } from './commands/serve.ts';

/** `mnemo`: the command line fixed by cli-and-harness.md. */
export async function main(argv: string[]): Promise<void> {
  const program = new Command('mnemo')
    .description('Mnemo: local-first memory for people and their AI agents')
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride();
  for (const register of [registerServe, registerKeys, registerImport, registerMcp, registerBench])
    register(program);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      process.exitCode = e.exitCode;
      return;
    }
    console.error(`mnemo: ${(e as Error).message}`);
    process.exitCode = 1;
  }
}
