import type { RowTerms } from './turn-tokens.ts';

/** FTS5's bm25() constants (fts5_aux.c). */
const k1 = 1.2;
const b = 0.75;

/**
 * An in-memory copy of turn_fts's index (terms, per-row column counts, row lengths), ranked by the
 * same arithmetic as FTS5's bm25() with fixed column weights, so it returns the same scores in the same
 * order; the test suite checks both against FTS5 itself. At 100,000 threaded Records FTS5 scores every
 * row that shares a word with the query through its auxiliary-function interface (~40 ms); the same
 * scoring over typed arrays takes a few.
 *
 * Exactness, term by term with fts5_aux.c:
 * - a phrase's frequency in a row sums the column weight once per instance, in column order (the order
 *   of xInst); repeated additions of 0.6 are not 0.6 x count, so the sum is formed the same way;
 * - D is the row's tokens in all columns (xColumnSize(-1)); avgdl is all tokens over all rows;
 * - IDF is log((N - hits + 0.5) / (hits + 0.5)), 1e-6 when not positive, over the whole table; the
 *   logarithm is the caller's (SQLite's own ln(), so the same libm);
 * - each row's score adds the phrases' terms in phrase order; ties keep FTS5's order (lower rowid).
 */
export interface TurnCopy {
  /** Live rows. */
  readonly rows: number;
  /** Distinct terms with postings (dead ones included until a compaction). */
  readonly terms: number;
  /** Bytes of typed arrays held (postings and per-row arrays). */
  readonly bytes: number;
  has(n: number): boolean;
  /** Adds or replaces row n. */
  set(n: number, terms: RowTerms): void;
  /**
   * Adds one term's column counts to row n (creating the row): how a copy is loaded term by term from
   * FTS5's own index. Each (row, term) is added once.
   */
  addTerm(n: number, term: string, counts: readonly number[]): void;
  remove(n: number): void;
  /** Drops removed rows' postings now, and the terms only they held. */
  compact(): void;
  /** Live rows containing the term in any column (FTS5's hits for a one-token phrase). */
  hits(term: string): number;
  /**
   * The best `cut` rows matching any of the phrases (one token each), highest score first, with
   * bm25 scores (positive: FTS5's bm25() negated). idf[i] belongs to phrases[i]; scope, when given,
   * keeps rows whose scope column holds that token.
   */
  rank(
    phrases: readonly string[],
    idf: readonly number[],
    scope: string | null,
    cut: number,
  ): Array<{ n: number; score: number }>;
}

interface Postings {
  /** Interleaved (slot, frequency code) pairs. */
  data: Int32Array;
  size: number;
}

export function createTurnCopy(weights: readonly number[], initialRows = 1024): TurnCopy {
  const scopeColumn = weights.length - 1;
  let capacity = Math.max(16, initialRows);
  let ns = new Float64Array(capacity);
  let lens = new Int32Array(capacity);
  let scopes = new Int32Array(capacity);
  let alive = new Uint8Array(capacity);
  let slots = 0;
  let live = 0;
  let dead = 0;
  let tokens = 0;
  const slotOf = new Map<number, number>();
  const postings = new Map<string, Postings>();
  const scopeIds = new Map<string, number>();
  // Frequencies are few distinct doubles (one per pattern of column counts): each posting names one.
  const freqOf = new Map<number | string, number>();
  let freqs = new Float64Array(64);
  let nFreqs = 0;
  // Live rows per term, counted once between changes: every search asks it of each of its words (for
  // the IDF), and a count walks the term's whole posting list, as long as the ranking's own walk.
  const hitsOf = new Map<string, number>();

  function freqCode(counts: readonly number[]): number {
    // A number for the usual counts (each under 256), a string past that.
    let key: number | string = 0;
    for (let c = counts.length - 1; c >= 0; c--) {
      const x = counts[c]!;
      if (x > 255) {
        key = counts.join(',');
        break;
      }
      key = key * 256 + x;
    }
    let code = freqOf.get(key);
    if (code === undefined) {
      let f = 0;
      for (let c = 0; c < counts.length; c++) for (let i = 0; i < counts[c]!; i++) f += weights[c] ?? 1;
      if (nFreqs === freqs.length) {
        const grown = new Float64Array(2 * freqs.length);
        grown.set(freqs);
        freqs = grown;
      }
      freqs[nFreqs] = f;
      code = nFreqs++;
      freqOf.set(key, code);
    }
    return code;
  }

  function growRows(): void {
    capacity *= 2;
    const grow = <T extends Float64Array | Int32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const g = make(capacity);
      g.set(a);
      return g;
    };
    ns = grow(ns, (c) => new Float64Array(c));
    lens = grow(lens, (c) => new Int32Array(c));
    scopes = grow(scopes, (c) => new Int32Array(c));
    alive = grow(alive, (c) => new Uint8Array(c));
  }

  function push(term: string, slot: number, code: number): void {
    let p = postings.get(term);
    if (!p) postings.set(term, (p = { data: new Int32Array(4), size: 0 }));
    if (2 * p.size === p.data.length) {
      const g = new Int32Array(2 * p.data.length);
      g.set(p.data);
      p.data = g;
    }
    p.data[2 * p.size] = slot;
    p.data[2 * p.size + 1] = code;
    p.size++;
  }

  /** Drops dead slots from every posting list and renumbers the live ones densely. */
  function compact(): void {
    const renumber = new Int32Array(slots).fill(-1);
    let next = 0;
    for (let s = 0; s < slots; s++) {
      if (!alive[s]) continue;
      renumber[s] = next;
      ns[next] = ns[s]!;
      lens[next] = lens[s]!;
      scopes[next] = scopes[s]!;
      alive[next] = 1;
      slotOf.set(ns[next]!, next);
      next++;
    }
    alive.fill(0, next, slots);
    slots = next;
    dead = 0;
    for (const [term, p] of postings) {
      let k = 0;
      for (let i = 0; i < p.size; i++) {
        const to = renumber[p.data[2 * i]!]!;
        if (to < 0) continue;
        p.data[2 * k] = to;
        p.data[2 * k + 1] = p.data[2 * i + 1]!;
        k++;
      }
      if (k === 0) postings.delete(term);
      else p.size = k;
    }
  }

  function remove(n: number): void {
    const slot = slotOf.get(n);
    if (slot === undefined) return;
    hitsOf.clear();
    slotOf.delete(n);
    alive[slot] = 0;
    live--;
    dead++;
    tokens -= lens[slot]!;
    // Dead slots are skipped by every scan; past half the slots they cost more than a compaction.
    if (dead > 1024 && dead > live) compact();
  }

  function slotFor(n: number): number {
    let slot = slotOf.get(n);
    if (slot !== undefined) return slot;
    if (slots === capacity) growRows();
    slot = slots++;
    ns[slot] = n;
    lens[slot] = 0;
    scopes[slot] = -1;
    alive[slot] = 1;
    slotOf.set(n, slot);
    live++;
    return slot;
  }

  function addTerm(n: number, term: string, counts: readonly number[]): void {
    if (hitsOf.size > 0) hitsOf.clear();
    const slot = slotFor(n);
    let len = 0;
    for (const c of counts) len += c;
    lens[slot] = lens[slot]! + len;
    tokens += len;
    if ((counts[scopeColumn] ?? 0) > 0 && scopes[slot] === -1) {
      let id = scopeIds.get(term);
      if (id === undefined) scopeIds.set(term, (id = scopeIds.size));
      scopes[slot] = id;
    }
    push(term, slot, freqCode(counts));
  }

  let acc = new Float64Array(0);
  let seen = new Uint32Array(0);
  let epoch = 0;
  let touched = new Int32Array(0);

  return {
    get rows() {
      return live;
    },
    get terms() {
      return postings.size;
    },
    get bytes() {
      let held = ns.byteLength + lens.byteLength + scopes.byteLength + alive.byteLength + freqs.byteLength;
      held += acc.byteLength + seen.byteLength + touched.byteLength;
      for (const p of postings.values()) held += p.data.byteLength;
      return held;
    },
    has: (n) => slotOf.has(n),
    set(n, terms) {
      remove(n);
      for (const [term, counts] of terms) addTerm(n, term, counts);
      if (!slotOf.has(n)) slotFor(n);
    },
    addTerm,
    remove,
    compact: () => {
      if (dead > 0) compact();
    },
    hits(term) {
      const known = hitsOf.get(term);
      if (known !== undefined) return known;
      const p = postings.get(term);
      if (!p) return 0;
      let h = 0;
      for (let i = 0; i < p.size; i++) h += alive[p.data[2 * i]!]!;
      if (hitsOf.size >= 4096) hitsOf.clear();
      hitsOf.set(term, h);
      return h;
    },
    rank(phrases, idf, scope, cut) {
      if (live === 0 || cut <= 0) return [];
      const scopeId = scope === null ? -2 : (scopeIds.get(scope) ?? -3);
      if (scopeId === -3) return [];
      if (acc.length < slots) {
        acc = new Float64Array(capacity);
        seen = new Uint32Array(capacity);
        touched = new Int32Array(capacity);
        epoch = 0;
      }
      if (++epoch === 0xffffffff) {
        seen.fill(0);
        epoch = 1;
      }
      const avgdl = tokens / live;
      let nTouched = 0;
      for (let i = 0; i < phrases.length; i++) {
        const p = postings.get(phrases[i]!);
        if (!p) continue;
        const w = idf[i]!;
        const d = p.data;
        for (let j = 0; j < p.size; j++) {
          const s = d[2 * j]!;
          if (!alive[s] || (scopeId >= 0 && scopes[s] !== scopeId)) continue;
          const f = freqs[d[2 * j + 1]!]!;
          // The expression of fts5_aux.c, operation for operation.
          const add = w * ((f * (k1 + 1.0)) / (f + k1 * (1 - b + (b * lens[s]!) / avgdl)));
          if (seen[s] !== epoch) {
            seen[s] = epoch;
            acc[s] = 0;
            touched[nTouched++] = s;
          }
          acc[s] = acc[s]! + add;
        }
      }
      return top(nTouched, Math.min(cut, nTouched));
    },
  };

  /** The best k of the touched slots: score descending, then rowid ascending. */
  function top(nTouched: number, k: number): Array<{ n: number; score: number }> {
    const heap = new Int32Array(k);
    let filled = 0;
    // "Worse" is lower score, or equal score and higher rowid: the heap's root is the worst kept.
    const worse = (x: number, y: number) => acc[x]! < acc[y]! || (acc[x] === acc[y] && ns[x]! > ns[y]!);
    const siftDown = (i: number) => {
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < filled && worse(heap[l]!, heap[m]!)) m = l;
        if (r < filled && worse(heap[r]!, heap[m]!)) m = r;
        if (m === i) return;
        const t = heap[i]!;
        heap[i] = heap[m]!;
        heap[m] = t;
        i = m;
      }
    };
    for (let t = 0; t < nTouched; t++) {
      const s = touched[t]!;
      if (filled < k) {
        let i = filled++;
        heap[i] = s;
        while (i > 0) {
          const p = (i - 1) >> 1;
          if (!worse(heap[i]!, heap[p]!)) break;
          const x = heap[i]!;
          heap[i] = heap[p]!;
          heap[p] = x;
          i = p;
        }
      } else if (worse(heap[0]!, s)) {
        heap[0] = s;
        siftDown(0);
      }
    }
    return Array.from(heap.subarray(0, filled))
      .sort((x, y) => (worse(x, y) ? 1 : worse(y, x) ? -1 : 0))
      .map((s) => ({ n: ns[s]!, score: acc[s]! }));
  }
}
