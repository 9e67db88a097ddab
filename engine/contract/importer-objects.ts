/**
 * The type of the Objects Mnemo's importer keeps in a Brain, one per imported calendar or contacts file
 * (server/import/forget-missing.ts), which the app names apart from the person's own Objects.
 */
export const importerObjectType = 'mnemo-import-file';
