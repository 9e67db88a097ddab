import type { Command } from 'commander';
import { compactPostgres } from '../../../engine/index.ts';
import { databaseUrlFromEnv, postgresUrl } from '../options.ts';

const kB = (bytes: number) => `${Math.round(bytes / 1024)} kB`;

/**
 * `mnemo compact --database-url URL`: after forgets on a hosted Mnemo, rewrites the tables that held the
 * forgotten Records' bytes (docs/hosted-postgres.md, Forgetting on a server). Each table is locked while
 * it is rewritten, so run it when a pause in writes is acceptable.
 */
export function register(program: Command): void {
  program
    .command('compact')
    .description(
      "rewrite a hosted Mnemo's tables without the bytes of forgotten Records (VACUUM FULL; locks each table while it runs)",
    )
    .option(
      '--database-url <url>',
      "a hosted Mnemo's PostgreSQL database (postgres://...; also MNEMO_DATABASE_URL)",
      postgresUrl,
    )
    .action(async (o: { databaseUrl?: string }) => {
      const url = o.databaseUrl ?? databaseUrlFromEnv();
      if (url === undefined) {
        console.error('mnemo compact: name the database with --database-url URL (or MNEMO_DATABASE_URL)');
        process.exitCode = 2;
        return;
      }
      const report = await compactPostgres(url);
      for (const t of report.tables) {
        process.stdout.write(`${t.table}  ${kB(t.bytesBefore)} -> ${kB(t.bytesAfter)}\n`);
      }
      if (report.statistics.compacted) process.stdout.write('pg_statistic  compacted\n');
      else console.error(`mnemo compact: ${report.statistics.reason}`);
    });
}
