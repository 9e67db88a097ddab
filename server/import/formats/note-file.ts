import { basename } from 'node:path';

/** A file the notes' reader reads: Markdown by its extension. */
export const isNoteFile = (name: string) => /\.(md|markdown)$/i.test(name);

/** A note's name as Obsidian shows it and links to it: its file's name without the extension. */
export const noteName = (file: string) => basename(file).replace(/\.(md|markdown)$/i, '');
