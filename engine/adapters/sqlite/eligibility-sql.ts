import type { SearchScope } from '../../ports/index.ts';
import type { SqlParam } from './store.ts';

/**
 * SQL conditions (AND-ed, for a records alias) that enforce the eligibility of evidence: the scope's
 * Brain, since, until, as_of, sources, hosted local_only and an off-device Context's shareable-only
 * (not the search's own window). A bare correction (one no Memory cites) is never evidence; `bare`
 * keeps it (a read of what the request may see, not quote: what withdrew a Memory).
 */
export function eligibilitySql(
  e: SearchScope,
  alias = 'r',
  opts: { bare?: boolean } = {},
): { sql: string; params: SqlParam[] } {
  const conds = [`${alias}.brain_uid = ?`];
  if (!opts.bare) conds.push(`NOT ${bareCorrectionSql(alias)}`);
  const params: SqlParam[] = [e.brainUid];
  if (e.excludeLocalOnly) conds.push(`${alias}.visibility <> 'local_only'`);
  if (e.shareableOnly) conds.push(`${alias}.visibility = 'shareable'`);
  if (e.sinceMs !== undefined) {
    conds.push(`${alias}.occurred_ms >= ?`);
    params.push(e.sinceMs);
  }
  if (e.untilMs !== undefined) {
    conds.push(`${alias}.occurred_ms <= ?`);
    params.push(e.untilMs);
  }
  if (e.asOfMs !== undefined) {
    conds.push(`${alias}.occurred_ms <= ?`);
    params.push(e.asOfMs);
  }
  if (e.sources !== undefined) {
    conds.push(`${alias}.source_name IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(e.sources));
  }
  return { sql: conds.join(' AND '), params };
}

/** The Record (a records alias) is a bare correction: one no Memory cites, which withdrew and stated nothing. */
export const bareCorrectionSql = (alias: string) =>
  `(${alias}.kind = 'correction' AND NOT EXISTS (SELECT 1 FROM citations ec WHERE ec.record_id = ${alias}.id))`;
