import type { Command } from 'commander';

/** Placeholder until the import command lands: registered so `mnemo --help` lists it. */
export function register(program: Command): void {
  program
    .command('import')
    .description('not available in this build yet')
    .allowUnknownOption(true)
    .action(() => {
      console.error('mnemo import: not available in this build yet');
      process.exitCode = 2;
    });
}
