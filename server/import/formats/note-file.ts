/** A file the notes' reader reads: Markdown by its extension. */
export const isNoteFile = (name: string) => /\.(md|markdown)$/i.test(name);
