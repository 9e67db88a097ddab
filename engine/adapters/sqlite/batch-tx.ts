import type { Store } from './store.ts';

/**
 * store.tx for a batch run from a timer: a throw rolls the batch back whole, a COMMIT that failed
 * included. A failed COMMIT can leave the transaction open, and every later write would nest inside it
 * and never commit. Nested, it is a savepoint, as store.tx is, and leaves the outer transaction alone.
 */
export function batchTx(store: Store): <T>(work: () => T) => T {
  return <T>(work: () => T): T => {
    const outermost = !store.db.inTransaction;
    try {
      return store.tx(work);
    } catch (e) {
      if (outermost && store.db.inTransaction) {
        try {
          store.db.exec('ROLLBACK');
        } catch {
          // Gone already.
        }
      }
      throw e;
    }
  };
}
