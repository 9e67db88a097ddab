// Makes the PGlite data directories the test files start from (engine/adapters/postgres/testing/
// pglite.ts), once, before they start: otherwise the first files of a fresh checkout each run initdb.
import { prepareDataDirs } from '../engine/adapters/postgres/testing/pglite.ts';

await prepareDataDirs();
