import type { ImportProgress, ImportResult } from '../../engine/contract/index.ts';
import { ImportCancelled } from './import-cancelled.ts';

export interface ImportWatchOptions {
  /** Aborted when the caller goes away: the import stops between items with ImportCancelled. */
  signal?: AbortSignal | undefined;
  /** What is known so far: once when planning ends, then at most every `progressEveryMs` (250). */
  onProgress?: ((p: ImportProgress) => void) | undefined;
  progressEveryMs?: number;
}

/**
 * Writes are synchronous in the local engine: without a turn of the event loop now and then, other
 * requests would wait for the whole import, and a closed connection (the cancel) would go unnoticed.
 */
const breathEveryMs = 50;
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Follows one upload's import: counts what was read, and between items lets the event loop run, stops
 * when the signal aborted, and reports progress when it is due. The counts written so far are read
 * from the result being built, so progress and the final ImportResult cannot disagree.
 */
export class ImportWatch {
  private readonly progress: ImportProgress;
  private lastReport = -Infinity;
  private lastBreath = Date.now();

  constructor(
    private readonly result: ImportResult,
    files: number,
    private readonly o: ImportWatchOptions,
  ) {
    this.progress = {
      object: 'import_progress',
      files,
      parts_planned: 0,
      parts_done: 0,
      current: null,
      current_item: null,
      items_read: 0,
      imported: 0,
      replaced: 0,
      unchanged: 0,
      skipped: 0,
      failed: 0,
    };
  }

  /** Planning ended: what will be read is known. Always reported. */
  planned(parts: number): void {
    this.progress.parts_planned = parts;
    this.report();
  }

  /** Part `index` (counted from 0) begins: every part before it is done. */
  startPart(index: number, name: string): void {
    this.progress.parts_done = index;
    this.progress.current = name;
    this.progress.current_item = null;
  }

  /** One item was read from the files (to write or skipped). May throw ImportCancelled. */
  readonly itemRead = async (): Promise<void> => {
    this.progress.items_read += 1;
    await this.between();
  };

  /** The item about to be written, named as the report names it. May throw ImportCancelled. */
  async beforeWrite(item: string): Promise<void> {
    this.progress.current_item = item;
    await this.between();
  }

  /** Between two items: breathe when due, stop on a cancel, report when due. */
  async between(): Promise<void> {
    if (Date.now() - this.lastBreath >= breathEveryMs) {
      await breathe();
      this.lastBreath = Date.now();
    }
    if (this.o.signal?.aborted) throw this.cancelled();
    if (Date.now() - this.lastReport >= (this.o.progressEveryMs ?? 250)) this.report();
  }

  /** Items forgotten so far as missing from the files (forget_missing): always reported. */
  forgotten(n: number): void {
    this.progress.forgotten = n;
    this.report();
  }

  /** The cancel, with what was written by now (call again once the writes under way have finished). */
  cancelled(): ImportCancelled {
    return new ImportCancelled(this.sum('imported') + this.sum('replaced'), this.sum('unchanged'));
  }

  private sum(field: 'imported' | 'replaced' | 'unchanged' | 'failed'): number {
    return this.result.parts.reduce((n, p) => n + p[field], 0);
  }

  private report(): void {
    this.lastReport = Date.now();
    if (!this.o.onProgress) return;
    this.o.onProgress({
      ...this.progress,
      imported: this.sum('imported'),
      replaced: this.sum('replaced'),
      unchanged: this.sum('unchanged'),
      skipped: this.result.skipped_count,
      failed: this.sum('failed'),
    });
  }
}
