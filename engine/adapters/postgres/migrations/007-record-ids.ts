/**
 * A Record's id names it wherever it travels (sync keeps it across devices), so a replica checks
 * whether another Brain already has the id (RecordRepository.inOtherBrains): by index, not by a scan.
 */
export const recordIds = {
  version: 7,
  name: 'record ids',
  sql: `CREATE INDEX records_id ON records (id);`,
};
