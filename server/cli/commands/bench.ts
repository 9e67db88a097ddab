import type { Command } from 'commander';

/** Placeholder until the bench command lands: registered so `mnemo --help` lists it. */
export function register(program: Command): void {
  program
    .command('bench')
    .description('not available in this build yet')
    .allowUnknownOption(true)
    .action(() => {
      console.error('mnemo bench: not available in this build yet');
      process.exitCode = 2;
    });
}
