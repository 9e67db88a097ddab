import type { Embedder, EmbedderSpec } from './embedder.ts';
import { createGloveEmbedder } from './glove-embedder.ts';

type GloveSpec = Extract<EmbedderSpec, { provider: 'glove-sif' }>;

export interface SharedGloveOptions {
  /** How a table is loaded (the worker thread's load by default). */
  load?: (spec: GloveSpec) => Promise<Embedder>;
  /** How long a loaded table outlives the last embedder over it, for the next engine. Default 5 s. */
  lingerMs?: number;
}

interface Load {
  embedder: Promise<Embedder>;
  loaded: boolean;
  forgotten: boolean;
  users: number;
  linger: NodeJS.Timeout | null;
}

/** Tables by prebuilt folder, vectors file and cache directory. */
const loads = new Map<string, Load>();

/**
 * The GloVe embedder over a table loaded once per process and shared by the engines in it, which
 * embed on their own thread with it (it is read-only). A server holds one engine; tools and tests open
 * engine after engine, each of which loaded the table anew (~0.3 CPU s). A table is closed once no
 * embedder uses it and `lingerMs` has passed; one whose load failed, or that no one waited for to the
 * end, is not kept. An aborted `signal` rejects this caller alone.
 */
export function sharedGloveEmbedder(
  spec: GloveSpec,
  signal?: AbortSignal,
  opts: SharedGloveOptions = {},
): Promise<Embedder> {
  const key = JSON.stringify([spec.tableDir ?? null, spec.vectorsPath ?? null, spec.cacheDir ?? null]);
  const load = loads.get(key) ?? startLoad(key, spec, opts.load ?? ((s) => createGloveEmbedder(s)));
  if (load.linger) clearTimeout(load.linger);
  load.linger = null;
  load.users += 1;

  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    load.users -= 1;
    if (load.users > 0) return;
    if (!load.loaded) {
      // Closed as soon as it has loaded; the next engine starts a load of its own.
      forget(key, load);
      return;
    }
    load.linger = setTimeout(() => forget(key, load), opts.lingerMs ?? 5_000);
    // A table waiting for a next engine keeps no process alive.
    load.linger.unref();
  };

  return new Promise<Embedder>((resolve, reject) => {
    const abort = () => {
      release();
      reject(new Error('embedder load aborted'));
    };
    if (signal?.aborted) return abort();
    signal?.addEventListener('abort', abort, { once: true });
    load.embedder.then(
      (e) => {
        signal?.removeEventListener('abort', abort);
        resolve({
          provider: e.provider,
          model: e.model,
          dims: e.dims,
          embed: (texts) => e.embed(texts),
          close: async () => release(),
        });
      },
      (error: unknown) => {
        signal?.removeEventListener('abort', abort);
        release();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

function startLoad(key: string, spec: GloveSpec, loadTable: (spec: GloveSpec) => Promise<Embedder>): Load {
  const load: Load = { embedder: loadTable(spec), loaded: false, forgotten: false, users: 0, linger: null };
  loads.set(key, load);
  load.embedder.then(
    () => {
      load.loaded = true;
      // Every caller gave up while it loaded.
      if (load.users === 0) forget(key, load);
    },
    () => {
      if (loads.get(key) === load) loads.delete(key);
    },
  );
  return load;
}

/** Drops the table from the shared ones and closes it once loaded. */
function forget(key: string, load: Load): void {
  if (load.forgotten) return;
  load.forgotten = true;
  if (load.linger) clearTimeout(load.linger);
  load.linger = null;
  if (loads.get(key) === load) loads.delete(key);
  load.embedder.then(
    (e) => e.close(),
    () => {},
  );
}
