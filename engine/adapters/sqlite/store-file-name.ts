/** The store's file in its data dir. A module of its own: the modules that name it import no store. */
export const storeFileName = 'mnemo.db';
