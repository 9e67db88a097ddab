import { createHash } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  renameSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

/** One file of a model, pinned by content. */
export interface ModelFile {
  /** Path inside the model directory (model.onnx, tokenizer.json, ...). */
  path: string;
  url: string;
  sha256: string;
  /** Expected size in bytes, when known: shown as the progress total before the server says. */
  size?: number | undefined;
}

export interface ModelManifest {
  id: string;
  files: ModelFile[];
}

/** The default onnx model: all-MiniLM-L6-v2 (384-d, Apache-2.0), pinned to one revision. */
export const MINILM_L6_V2: ModelManifest = {
  id: 'all-MiniLM-L6-v2',
  files: [
    {
      path: 'model.onnx',
      url: 'https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2/resolve/1110a243fdf4706b3f48f1d95db1a4f5529b4d41/onnx/model.onnx',
      sha256: '6fd5d72fe4589f189f8ebc006442dbb529bb7ce38f8082112682524616046452',
      size: 90_405_214,
    },
    {
      path: 'tokenizer.json',
      url: 'https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2/resolve/1110a243fdf4706b3f48f1d95db1a4f5529b4d41/tokenizer.json',
      sha256: 'be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037',
    },
  ],
};

export interface Progress {
  file: string;
  received: number;
  total: number | null;
}

export interface DownloadOptions {
  onProgress?: ((p: Progress) => void) | undefined;
  signal?: AbortSignal | undefined;
  fetch?: typeof fetch | undefined;
}

export async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/**
 * Downloads one file to `dest`, resuming a `.part` left by an interrupted run (HTTP Range), and moves
 * it into place only when its SHA-256 matches. A mismatch deletes the partial file and throws, so the
 * next attempt starts clean rather than appending to bad bytes.
 */
export async function downloadVerified(
  file: ModelFile,
  dest: string,
  opts: DownloadOptions = {},
): Promise<void> {
  if (existsSync(dest) && (await sha256File(dest)) === file.sha256) return;
  mkdirSync(dirname(dest), { recursive: true });
  const part = `${dest}.part`;
  const have = existsSync(part) ? statSync(part).size : 0;
  const doFetch = opts.fetch ?? fetch;
  const res = await doFetch(file.url, {
    headers: have > 0 ? { Range: `bytes=${have}-` } : {},
    signal: opts.signal ?? null,
    redirect: 'follow',
  });
  let offset: number;
  if (res.status === 206 && have > 0) offset = have;
  else if (res.status === 200) offset = 0;
  else if (res.status === 416 && have > 0)
    offset = have; // nothing left to fetch: the part is complete
  else throw new Error(`${file.url}: HTTP ${res.status}`);

  const length = Number(res.headers.get('content-length') ?? NaN);
  const total = Number.isFinite(length) && res.status !== 416 ? offset + length : (file.size ?? null);
  let received = offset;
  if (res.status !== 416) {
    const out = createWriteStream(part, { flags: offset > 0 ? 'a' : 'w' });
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
        received += chunk.length;
        opts.onProgress?.({ file: file.path, received, total });
      }
    } finally {
      await new Promise<void>((resolve, reject) =>
        out.end((e?: Error | null) => (e ? reject(e) : resolve())),
      );
    }
  }
  const got = await sha256File(part);
  if (got !== file.sha256) {
    unlinkSync(part);
    throw new Error(
      `${file.path}: SHA-256 mismatch (expected ${file.sha256}, got ${got}); the partial download was removed`,
    );
  }
  renameSync(part, dest);
}

/**
 * Makes sure every file of the manifest is present and verified under `dir` (downloading what is
 * missing), and returns the directory to load the model from.
 */
export async function ensureModel(
  manifest: ModelManifest,
  dir: string,
  opts: DownloadOptions = {},
): Promise<string> {
  const modelDir = join(dir, manifest.id);
  for (const f of manifest.files) await downloadVerified(f, join(modelDir, f.path), opts);
  return modelDir;
}
