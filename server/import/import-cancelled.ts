/**
 * An import stopped because its caller went away (the HTTP request's connection closed). It stops
 * between items: every item is written whole (one transaction each) or not at all, what was written
 * stays, and the same import again writes the rest (each item's Idempotency-Key derives from its
 * content, so the items already written are replays). `written` (new Records: items imported or
 * replaced) and `unchanged` say how far it got.
 */
export class ImportCancelled extends Error {
  constructor(
    readonly written: number,
    readonly unchanged: number,
  ) {
    super(`import cancelled after ${written} new and ${unchanged} unchanged items`);
    this.name = 'ImportCancelled';
  }
}
