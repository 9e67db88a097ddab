import type { AcceptedObject, Brain, Memory, MnemoRecord } from '../../engine/contract/index.ts';
import type { MnemoClient } from './index.ts';

/**
 * `mnemo export`'s format: JSON Lines, each line one resource exactly as `/v1` serves it and named by its
 * own `object` field, so a reader needs no schema beyond the API's (docs/agents.md, "Exporting a
 * Brain"). The first line says what the file is; the last one what it holds, so a file cut short is
 * told apart from a small Brain.
 */
export const exportFormat = 'mnemo_export';
export const exportFormatVersion = 1;

export interface ExportHeader {
  object: typeof exportFormat;
  format_version: number;
  exported_at: string;
  server: string;
  brain: Brain;
  /** The visibilities left out by choice (`--no-local-only`), none by default. */
  left_out_visibilities: string[];
}

export interface ExportEnd {
  object: 'export_end';
  records: number;
  memories: number;
  objects: number;
  /**
   * What the export leaves out and why: Records of a visibility left out, and Memories citing a
   * Record the file does not hold (one of those, or one written while the export read the Memories).
   */
  left_out: { records: number; memories: number };
}

export type ExportLine = ExportHeader | ExportEnd | MnemoRecord | Memory | AcceptedObject;

export interface ExportOptions {
  /** False leaves out `local_only` Records and the Memories citing them, for a file meant to leave the device. */
  includeLocalOnly: boolean;
  now?: () => Date;
}

/**
 * Every Record, Memory (whatever its status) and Object of BRAIN_ID, read page by page through the
 * API. Records are read first: a Memory is written only when every Record it cites is in the file, so
 * no line points at one that is not.
 */
export async function* exportBrain(
  client: MnemoClient,
  brainId: string,
  o: ExportOptions,
): AsyncGenerator<ExportLine> {
  const brain = await client.getBrain(brainId);
  const leftOutVisibilities = o.includeLocalOnly ? [] : ['local_only'];
  const header: ExportHeader = {
    object: exportFormat,
    format_version: exportFormatVersion,
    exported_at: (o.now?.() ?? new Date()).toISOString(),
    server: client.baseUrl,
    brain,
    left_out_visibilities: leftOutVisibilities,
  };
  yield header;

  const held = new Set<string>();
  const end: ExportEnd = {
    object: 'export_end',
    records: 0,
    memories: 0,
    objects: 0,
    left_out: { records: 0, memories: 0 },
  };
  for (let cursor: string | undefined; ;) {
    const page = await client.listRecords(brainId, { limit: 200, ...(cursor ? { cursor } : {}) });
    for (const record of page.data) {
      if (leftOutVisibilities.includes(record.visibility)) {
        end.left_out.records += 1;
        continue;
      }
      held.add(record.id);
      end.records += 1;
      yield record;
    }
    if (!page.has_more || !page.next_cursor) break;
    cursor = page.next_cursor;
  }
  for (let cursor: string | undefined; ;) {
    const page = await client.listMemories(brainId, {
      status: 'all',
      limit: 200,
      ...(cursor ? { cursor } : {}),
    });
    for (const memory of page.data) {
      if (!memory.citations.every((c) => held.has(c.record_id))) {
        end.left_out.memories += 1;
        continue;
      }
      end.memories += 1;
      yield memory;
    }
    if (!page.has_more || !page.next_cursor) break;
    cursor = page.next_cursor;
  }
  for (let cursor: string | undefined; ;) {
    const page = await client.listObjects(brainId, { limit: 500, ...(cursor ? { cursor } : {}) });
    for (const object of page.data) {
      end.objects += 1;
      yield object;
    }
    if (!page.has_more || !page.next_cursor) break;
    cursor = page.next_cursor;
  }
  yield end;
}

/**
 * Writes LINES, one JSON object a line, through WRITE, a page of lines at a time; resolves to the
 * export's last line, and throws when the lines end without it.
 */
export async function writeExport(
  lines: AsyncIterable<ExportLine>,
  write: (chunk: string) => Promise<void> | void,
): Promise<ExportEnd> {
  let last: ExportLine | null = null;
  let pending: string[] = [];
  for await (const line of lines) {
    pending.push(`${JSON.stringify(line)}\n`);
    last = line;
    if (pending.length >= 200) {
      await write(pending.join(''));
      pending = [];
    }
  }
  if (pending.length > 0) await write(pending.join(''));
  if (last?.object !== 'export_end') throw new Error('the export ended without its last line');
  return last;
}
