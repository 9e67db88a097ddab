import { basename } from 'node:path';

/** A file the notes' reader reads, by its extension: Markdown, or a JSON Canvas (Obsidian's `.canvas`). */
export const isNoteFile = (name: string) => /\.(md|markdown|canvas)$/i.test(name);

/** A JSON Canvas (jsoncanvas.org): its cards are read for its words (canvas.ts), not its Markdown. */
export const isCanvasFile = (name: string) => /\.canvas$/i.test(name);

/** A note's name as Obsidian shows it and links to it: its file's name without the extension. */
export const noteName = (file: string) => basename(file).replace(/\.(md|markdown|canvas)$/i, '');
