import {
  instantiateL2,
  newMemory,
  strideOf,
  type ScanFn,
  type WasmMemory,
} from '../../core/retrieve/int8-l2-kernel.ts';

/**
 * An in-memory copy of one partition of an int8 vec0 table (one Brain's vectors of one model and
 * owner), scanned exactly: the same distances and the same order as sqlite-vec 0.1.9's KNN.
 *
 * sqlite-vec computes an int8 L2 distance as sqrt of the integer sum of squared differences (summed in
 * f32, exact below 2^24), returned as an f32; ties keep its scan order: chunks in chunk_id order, and
 * within a chunk the higher offset first (its per-chunk selection takes the last of equal minima, and
 * merging keeps earlier chunks ahead). Each slot keeps its vec0 position as a tie key so that order can
 * be reproduced; the test suite checks both against vec0 itself.
 */
export interface VectorCopy {
  readonly dims: number;
  readonly count: number;
  /** Bytes held (WebAssembly memory and the per-slot arrays; the rowid index is extra, ~40 B/vector). */
  readonly bytes: number;
  has(n: number): boolean;
  /** Adds or replaces the vector of rowid n (dims int8 bytes) at its vec0 position (chunk, offset). */
  set(n: number, vector: Uint8Array, chunkId: number, chunkOffset: number): void;
  /** Removes rowid n; its bytes are overwritten with zeros (or by the slot moved into its place). */
  remove(n: number): void;
  /** The k nearest rowids to an int8 query (dims bytes), nearest first, with vec0's L2 distance. */
  nearest(query: Uint8Array, k: number): Array<{ n: number; l2: number }>;
  /** Zeroes every byte held and lets go of the memory; the copy is unusable afterwards. */
  dispose(): void;
  /** A view of the memory the vectors are in now (for tests that check what it holds). */
  heldMemory(): Uint8Array;
}

/** vec0 order among equal distances: lower chunk_id first, then higher chunk_offset first. */
const tieKey = (chunkId: number, chunkOffset: number) => chunkId * 2 ** 20 + (2 ** 20 - 1 - chunkOffset);

const pageBytes = 65_536;

/** A region of WebAssembly memory: the widened query, then the vectors, then one i32 distance each. */
interface Arena {
  memory: WasmMemory;
  scan: ScanFn;
  capacity: number;
  vectorsAt: number;
  distancesAt: number;
}

function arena(stride: number, capacity: number): Arena {
  const vectorsAt = 2 * stride;
  const distancesAt = vectorsAt + capacity * stride;
  const memory = newMemory(Math.max(1, Math.ceil((distancesAt + capacity * 4) / pageBytes)));
  return { memory, scan: instantiateL2(stride, memory), capacity, vectorsAt, distancesAt };
}

/** The largest squared distance whose f32 distance is at most d (several integers share one f32). */
function maxSquareFor(d: number): number {
  let s = Math.floor(d * d);
  while (Math.fround(Math.sqrt(s + 1)) <= d) s++;
  while (s > 0 && Math.fround(Math.sqrt(s)) > d) s--;
  return s;
}

export function createVectorCopy(dims: number, initialCapacity = 1024): VectorCopy {
  const stride = strideOf(dims);
  let a = arena(stride, Math.max(16, initialCapacity));
  let ns = new Float64Array(a.capacity);
  let ties = new Float64Array(a.capacity);
  const slotOf = new Map<number, number>();
  let count = 0;
  let disposed = false;
  const held = () => a.memory.buffer.byteLength + ns.byteLength + ties.byteLength;

  const bytes = () => new Uint8Array(a.memory.buffer);
  const zeroSlot = (slot: number) =>
    bytes().fill(0, a.vectorsAt + slot * stride, a.vectorsAt + (slot + 1) * stride);

  /** A bigger arena, with the vectors copied over and the old memory zeroed before it is dropped. */
  function grow(): void {
    const next = arena(stride, a.capacity * 2);
    const old = bytes();
    new Uint8Array(next.memory.buffer).set(
      old.subarray(a.vectorsAt, a.vectorsAt + count * stride),
      next.vectorsAt,
    );
    old.fill(0);
    a = next;
    const grownNs = new Float64Array(a.capacity);
    grownNs.set(ns);
    ns.fill(0);
    ns = grownNs;
    const grownTies = new Float64Array(a.capacity);
    grownTies.set(ties);
    ties = grownTies;
  }

  return {
    dims,
    get count() {
      return count;
    },
    get bytes() {
      return disposed ? 0 : held();
    },
    has: (n) => slotOf.has(n),
    set(n, vector, chunkId, chunkOffset) {
      if (disposed) throw new Error('the vector copy was disposed');
      if (vector.length !== dims) throw new Error(`expected ${dims} int8 components, got ${vector.length}`);
      let slot = slotOf.get(n);
      if (slot === undefined) {
        if (count === a.capacity) grow();
        slot = count++;
        slotOf.set(n, slot);
      }
      const at = a.vectorsAt + slot * stride;
      // The padding past dims stays zero in both the vectors and the query, so it adds nothing.
      bytes().set(vector, at);
      ns[slot] = n;
      ties[slot] = tieKey(chunkId, chunkOffset);
    },
    remove(n) {
      const slot = slotOf.get(n);
      if (slot === undefined) return;
      slotOf.delete(n);
      const last = --count;
      if (slot !== last) {
        // The last slot moves into the hole (the scan needs no gaps), overwriting the removed bytes.
        const from = a.vectorsAt + last * stride;
        bytes().copyWithin(a.vectorsAt + slot * stride, from, from + stride);
        ns[slot] = ns[last]!;
        ties[slot] = ties[last]!;
        slotOf.set(ns[slot], slot);
      }
      zeroSlot(last);
      ns[last] = 0;
    },
    nearest(query, k) {
      if (disposed) throw new Error('the vector copy was disposed');
      if (query.length !== dims) throw new Error(`expected ${dims} int8 components, got ${query.length}`);
      if (count === 0 || k <= 0) return [];
      const q16 = new Int16Array(a.memory.buffer, 0, stride);
      const q8 = new Int8Array(query.buffer, query.byteOffset, dims);
      for (let i = 0; i < dims; i++) q16[i] = q8[i]!;
      q16.fill(0, dims);
      a.scan(0, a.vectorsAt, count, a.distancesAt);
      q16.fill(0);
      const squares = new Int32Array(a.memory.buffer, a.distancesAt, count);

      // A max-heap of the best k so far, by (distance, tie key); most slots are turned away by one
      // integer comparison against the largest square that could still enter.
      const size = Math.min(k, count);
      const heapSlot = new Int32Array(size);
      const heapD = new Float64Array(size);
      let filled = 0;
      let admit = Infinity;
      const worse = (i: number, j: number) =>
        heapD[i]! > heapD[j]! || (heapD[i] === heapD[j] && ties[heapSlot[i]!]! > ties[heapSlot[j]!]!);
      const swap = (i: number, j: number) => {
        const s = heapSlot[i]!;
        heapSlot[i] = heapSlot[j]!;
        heapSlot[j] = s;
        const d = heapD[i]!;
        heapD[i] = heapD[j]!;
        heapD[j] = d;
      };
      const siftDown = (i: number) => {
        for (;;) {
          const l = 2 * i + 1;
          const r = l + 1;
          let top = i;
          if (l < size && worse(l, top)) top = l;
          if (r < size && worse(r, top)) top = r;
          if (top === i) return;
          swap(i, top);
          i = top;
        }
      };
      for (let slot = 0; slot < count; slot++) {
        const s = squares[slot]!;
        if (s > admit) continue;
        const d = Math.fround(Math.sqrt(s));
        if (filled < size) {
          let i = filled++;
          heapSlot[i] = slot;
          heapD[i] = d;
          while (i > 0) {
            const p = (i - 1) >> 1;
            if (!worse(i, p)) break;
            swap(i, p);
            i = p;
          }
          if (filled === size) admit = maxSquareFor(heapD[0]!);
          continue;
        }
        if (d < heapD[0]! || (d === heapD[0] && ties[slot]! < ties[heapSlot[0]!]!)) {
          heapSlot[0] = slot;
          heapD[0] = d;
          siftDown(0);
          admit = maxSquareFor(heapD[0]!);
        }
      }
      const order = Array.from({ length: filled }, (_, i) => i).sort((i, j) =>
        heapD[i] !== heapD[j] ? heapD[i]! - heapD[j]! : ties[heapSlot[i]!]! - ties[heapSlot[j]!]!,
      );
      return order.map((i) => ({ n: ns[heapSlot[i]!]!, l2: heapD[i]! }));
    },
    heldMemory: () => bytes(),
    dispose() {
      if (disposed) return;
      disposed = true;
      bytes().fill(0);
      ns.fill(0);
      ties.fill(0);
      slotOf.clear();
      count = 0;
    },
  };
}
