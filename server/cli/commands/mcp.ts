import type { Command } from 'commander';

/** Placeholder until the mcp command lands: registered so `mnemo --help` lists it. */
export function register(program: Command): void {
  program
    .command('mcp')
    .description('not available in this build yet')
    .allowUnknownOption(true)
    .action(() => {
      console.error('mnemo mcp: not available in this build yet');
      process.exitCode = 2;
    });
}
