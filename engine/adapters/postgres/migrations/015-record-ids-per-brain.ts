/**
 * A Record id is unique per Brain here (`UNIQUE (brain_uid, id)`), so a replica no longer asks
 * whether another Brain holds its id (RecordRepository.idsHeldElsewhere): that asked across projects,
 * which told one tenant about another's ids and let it claim them first. The index served only that
 * question, and every Record write paid for it.
 */
export const recordIdsPerBrain = {
  version: 15,
  name: 'record ids per brain',
  sql: `DROP INDEX IF EXISTS records_id;`,
};
