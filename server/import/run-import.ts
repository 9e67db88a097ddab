import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { RecordCreate, type MnemoRecord } from '../../engine/contract/index.ts';
import { MnemoApiError, type MnemoClient } from '../client/index.ts';
import { validationMessage } from '../http/validate.ts';
import { detectFormat } from './detect-format.ts';
import { parseChatgpt, parseClaude } from './formats/chat-exports.ts';
import { parseIcs } from './formats/ics.ts';
import { parseMarkdown } from './formats/markdown.ts';
import { parseMbox } from './formats/mbox.ts';
import { parseSlack } from './formats/slack.ts';
import { parseVcf } from './formats/vcf.ts';
import { parseWhatsapp } from './formats/whatsapp.ts';
import { importIdempotencyKey } from './idempotency-key.ts';
import type { ImportFormat, ImportItem, ImportRecord, ParseOptions, Parser } from './import-item.ts';

export const parsers: Record<ImportFormat, Parser> = {
  // One reader: a note's source name says whether it lies in a vault, not which of the two was asked.
  markdown: parseMarkdown,
  obsidian: parseMarkdown,
  chatgpt: parseChatgpt,
  claude: parseClaude,
  mbox: parseMbox,
  whatsapp: parseWhatsapp,
  slack: parseSlack,
  ics: parseIcs,
  vcf: parseVcf,
};

export interface ImportProgress {
  total: number;
  done: number;
  imported: number;
  unchanged: number;
  skipped: number;
  failed: number;
}

export interface ImportSummary extends ImportProgress {
  format: ImportFormat;
  brain: string;
  brainCreated: boolean;
  /** Items not sent, each with the reason (malformed, empty, a notice, rejected by the server). */
  skippedItems: { ref: string; reason: string }[];
  /** Items the server failed to store after the client's retries. */
  failedItems: { ref: string; reason: string; code: string }[];
  elapsedMs: number;
}

export interface ImportOptions extends ParseOptions {
  client: MnemoClient;
  brainId: string;
  path: string;
  format?: ImportFormat | 'auto';
  /** Requests in flight at once (default 8). */
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (p: ImportProgress) => void;
}

/** Errors that would fail every item alike: stop instead of reporting 10,000 copies of one problem. */
function isFatal(e: unknown): boolean {
  return (
    e instanceof MnemoApiError &&
    (e.type === 'authentication' ||
      e.type === 'permission' ||
      e.code === 'network_error' ||
      e.code === 'brain_not_found')
  );
}

/** The format and file to read: detected for `auto`; a WhatsApp folder resolves to its chat .txt. */
export async function resolveInput(
  path: string,
  format: ImportFormat | 'auto',
): Promise<{ format: ImportFormat; path: string }> {
  if (format === 'auto') {
    const d = await detectFormat(path);
    if (!d) throw new Error(`${path}: cannot tell the format; pass --format`);
    return d;
  }
  if (format === 'whatsapp' && (await stat(path)).isDirectory()) {
    const txt = (await readdir(path)).filter((n) => n.endsWith('.txt')).sort();
    const file = txt.includes('_chat.txt') ? '_chat.txt' : txt[0];
    if (!file) throw new Error(`${path}: no .txt chat export in this folder`);
    return { format, path: join(path, file) };
  }
  return { format, path };
}

/**
 * Validated against the contract before sending, so a malformed item is a skip with a reason, not a 400;
 * the reason is the message the server's 400 would carry.
 */
function validate(item: ImportRecord): string | null {
  const r = RecordCreate.safeParse(item.body);
  return r.success ? null : validationMessage(r.error, item.body, 'body', RecordCreate);
}

export interface CollectedRecords {
  records: ImportRecord[];
  /** The Idempotency-Key of each record, index for index. */
  keys: string[];
  skippedItems: { ref: string; reason: string }[];
}

/**
 * Parses PATH in FORMAT into Records ready to send: each validated against the contract (a malformed
 * item becomes a skip with the reason) and keyed by its derived Idempotency-Key; an item identical to
 * an earlier one (same key) is a skip "duplicate of ...". `seenKeys` may be shared across several
 * calls so one import of many files sends each item once.
 */
export async function collectRecords(
  format: ImportFormat,
  path: string,
  o: ParseOptions,
  seenKeys: Map<string, string> = new Map(),
): Promise<CollectedRecords> {
  const skippedItems: CollectedRecords['skippedItems'] = [];
  const records: ImportRecord[] = [];
  const keys: string[] = [];
  for await (const item of parsers[format](path, o) as AsyncIterable<ImportItem>) {
    if (item.type === 'skip') {
      skippedItems.push({ ref: item.ref, reason: item.reason });
      continue;
    }
    const invalid = validate(item);
    if (invalid) {
      skippedItems.push({ ref: item.ref, reason: invalid });
      continue;
    }
    const key = importIdempotencyKey(item.body);
    const twin = seenKeys.get(key);
    if (twin !== undefined) {
      skippedItems.push({ ref: item.ref, reason: `duplicate of ${twin} in this export` });
      continue;
    }
    seenKeys.set(key, item.ref);
    records.push(item);
    keys.push(key);
  }
  return { records, keys, skippedItems };
}

async function ensureBrain(
  client: MnemoClient,
  brainId: string,
  selfName?: string,
  signal?: AbortSignal,
): Promise<boolean> {
  try {
    await client.getBrain(brainId, { signal });
    return false;
  } catch (e) {
    if (!(e instanceof MnemoApiError) || e.code !== 'brain_not_found') throw e;
  }
  try {
    // With --self the new Brain knows whose memory it is, so "self" speakers resolve to that person.
    await client.createBrain(
      { id: brainId, ...(selfName ? { self: { type: 'person', name: selfName } } : {}) },
      { signal },
    );
    return true;
  } catch (e) {
    if (e instanceof MnemoApiError && e.code === 'brain_exists') return false; // created meanwhile
    throw e;
  }
}

/**
 * For a server that does not send Idempotent-Replayed: a replayed Record was created before this run
 * began. created_at is the server's clock, so a remote server with a skewed clock blurs the split.
 */
function replayedByClock(record: MnemoRecord, started: number, brainCreated: boolean): boolean {
  return !brainCreated && Date.parse(record.created_at) < started;
}

/**
 * Reads PATH in its format and sends every item as a Record through the /v1 API, a few requests in
 * flight at a time. Idempotency-Keys derive from each item, so a re-import stores nothing new; an item
 * whose Record already existed before this run counts as unchanged. Throws only for failures that would
 * hit every item (credential, unreachable server); per-item problems land in the summary.
 */
export async function runImport(o: ImportOptions): Promise<ImportSummary> {
  const started = Date.now();
  const { format, path } = await resolveInput(o.path, o.format ?? 'auto');
  const { records, keys, skippedItems } = await collectRecords(format, path, o);
  const failedItems: ImportSummary['failedItems'] = [];

  const brainCreated = await ensureBrain(o.client, o.brainId, o.selfName, o.signal);
  const progress: ImportProgress = {
    total: records.length + skippedItems.length,
    done: skippedItems.length,
    imported: 0,
    unchanged: 0,
    skipped: skippedItems.length,
    failed: 0,
  };
  o.onProgress?.({ ...progress });
  let next = 0;
  let fatal: unknown = null;
  const worker = async () => {
    while (fatal === null && next < records.length && !o.signal?.aborted) {
      const i = next++;
      const item = records[i]!;
      try {
        const { record, replayed } = await o.client.rememberRecord(o.brainId, item.body, {
          idempotencyKey: keys[i]!,
          signal: o.signal,
        });
        if (replayed ?? replayedByClock(record, started, brainCreated)) progress.unchanged += 1;
        else progress.imported += 1;
      } catch (e) {
        if (isFatal(e) || !(e instanceof MnemoApiError)) {
          fatal ??= e;
          return;
        }
        if (e.type === 'invalid_request') {
          progress.skipped += 1;
          skippedItems.push({ ref: item.ref, reason: `rejected by the server: ${e.code}: ${e.message}` });
        } else {
          progress.failed += 1;
          failedItems.push({ ref: item.ref, reason: e.message, code: e.code });
        }
      }
      progress.done += 1;
      o.onProgress?.({ ...progress });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency ?? 8) }, worker));
  if (fatal !== null) throw fatal;
  if (o.signal?.aborted) throw o.signal.reason;
  return {
    ...progress,
    format,
    brain: o.brainId,
    brainCreated,
    skippedItems,
    failedItems,
    elapsedMs: Date.now() - started,
  };
}

/** Resolves once the Brain has derived every Record it accepted (census reports none processing). */
export async function waitForDerivation(
  client: MnemoClient,
  brainId: string,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const census = await client.getCensus(brainId);
    if (census.counts.records_processing === 0) return;
    if (Date.now() > deadline) throw new Error(`${brainId}: still deriving after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
