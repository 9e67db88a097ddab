/**
 * The squared L2 distances of one int8 query to many int8 vectors, in WebAssembly SIMD.
 *
 * The module is emitted here, byte by byte, from the handful of instructions it needs (no toolchain,
 * no committed binary): `scan(query, vectors, count, out)` reads `count` vectors of `stride` bytes at
 * `vectors` (stride a multiple of 16, zero-padded past the dimensions) and writes one i32 per vector at
 * `out`. The query sits at `query` already widened to i16 (2 × stride bytes), so the loop widens only
 * the stored vector: per 16 components, one load, two sign extensions to i16, two subtractions and two
 * `i32x4.dot_i16x8_s` (each multiplies eight i16 pairs and adds adjacent products into four i32).
 *
 * Exact integer arithmetic: a component difference is within ±254 (fits i16), a pair of squares within
 * 129,032 and a whole distance within 100 × 254² for 100 dimensions (fits i32), so the sum is the same
 * integer sqlite-vec accumulates (in f32, exactly, below 2^24).
 */

// Binary encoding (WebAssembly core spec 1.0 + the fixed-width SIMD proposal, in V8 since Node 16).
const i32 = 0x7f;
const v128 = 0x7b;
const op = {
  block: 0x02,
  loop: 0x03,
  br: 0x0c,
  brIf: 0x0d,
  end: 0x0b,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Store: 0x36,
  i32Const: 0x41,
  i32GeU: 0x4f,
  i32Add: 0x6a,
  i32Mul: 0x6c,
  simd: 0xfd,
} as const;
/** SIMD opcodes, each written after the 0xfd prefix as an unsigned LEB128. */
const simd = {
  v128Load: 0x00,
  v128Const: 0x0c,
  i32x4ExtractLane: 0x1b,
  i16x8ExtendLowI8x16S: 0x87,
  i16x8ExtendHighI8x16S: 0x88,
  i16x8Sub: 0x91,
  i32x4Add: 0xae,
  i32x4DotI16x8S: 0xba,
} as const;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

const name = (s: string) => [...uleb(s.length), ...Buffer.from(s, 'utf8')];
const vec = (items: number[][]) => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
const simdOp = (code: number) => [op.simd, ...uleb(code)];
/** memarg: alignment as a power of two, then the constant offset added to the address. */
const memarg = (alignLog2: number, offset: number) => [...uleb(alignLog2), ...uleb(offset)];

/** The module's bytes for vectors of `stride` bytes (a positive multiple of 16). */
export function emitL2Module(stride: number): Uint8Array {
  if (!(stride > 0 && stride % 16 === 0)) throw new Error(`stride must be a multiple of 16: ${stride}`);
  const blocks = stride / 16;
  // Locals: 0-3 the parameters; then end, acc, x, d, and the query's i16 halves q0..q(2·blocks-1).
  const [query, vectors, count, out, end, acc, x, d] = [0, 1, 2, 3, 4, 5, 6, 7];
  const q = (i: number) => 8 + i;
  const get = (l: number) => [op.localGet, ...uleb(l)];
  const set = (l: number) => [op.localSet, ...uleb(l)];

  const body: number[] = [];
  // The query stays in locals (registers where the CPU has enough) for the whole scan.
  for (let i = 0; i < 2 * blocks; i++)
    body.push(...get(query), ...simdOp(simd.v128Load), ...memarg(4, 16 * i), ...set(q(i)));
  body.push(...get(vectors), ...get(count), op.i32Const, ...sleb(stride), op.i32Mul, op.i32Add, ...set(end));
  body.push(op.block, 0x40, op.loop, 0x40);
  body.push(...get(vectors), ...get(end), op.i32GeU, op.brIf, 1);
  body.push(...simdOp(simd.v128Const), ...new Array<number>(16).fill(0), ...set(acc));
  for (let b = 0; b < blocks; b++) {
    body.push(...get(vectors), ...simdOp(simd.v128Load), ...memarg(4, 16 * b), ...set(x));
    for (const [extend, half] of [
      [simd.i16x8ExtendLowI8x16S, 2 * b],
      [simd.i16x8ExtendHighI8x16S, 2 * b + 1],
    ] as const) {
      // d = widen(x half) - q half; acc += dot(d, d)
      body.push(...get(x), ...simdOp(extend), ...get(q(half)), ...simdOp(simd.i16x8Sub));
      body.push(op.localTee, ...uleb(d), ...get(d), ...simdOp(simd.i32x4DotI16x8S));
      body.push(...get(acc), ...simdOp(simd.i32x4Add), ...set(acc));
    }
  }
  // out[i] = the four lanes of acc added
  body.push(...get(out));
  for (let lane = 0; lane < 4; lane++) {
    body.push(...get(acc), ...simdOp(simd.i32x4ExtractLane), lane);
    if (lane > 0) body.push(op.i32Add);
  }
  body.push(op.i32Store, ...memarg(2, 0));
  body.push(...get(vectors), op.i32Const, ...sleb(stride), op.i32Add, ...set(vectors));
  body.push(...get(out), op.i32Const, 4, op.i32Add, ...set(out));
  body.push(op.br, 0, op.end, op.end, op.end);

  const locals = vec([
    [1, i32], // end
    [3 + 2 * blocks, v128], // acc, x, d, q0..
  ]);
  const code = [...locals, ...body];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
    ...section(1, vec([[0x60, ...vec([[i32], [i32], [i32], [i32]]), ...vec([])]])), // (i32 ×4) -> ()
    ...section(2, vec([[...name('env'), ...name('mem'), 0x02, 0x00, 0x01]])), // memory import, min 1 page
    ...section(3, vec([[0]])), // function 0 has type 0
    ...section(7, vec([[...name('scan'), 0x00, 0]])), // export function 0 as "scan"
    ...section(10, vec([[...uleb(code.length), ...code]])),
  ]);
}

/** Bytes per stored vector: the dimensions rounded up to whole 16-byte SIMD blocks. */
export const strideOf = (dims: number) => Math.ceil(dims / 16) * 16;

export type ScanFn = (query: number, vectors: number, count: number, out: number) => void;

/** A WebAssembly memory: `buffer` is its bytes, 64 KiB pages. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

/**
 * The members of Node's global WebAssembly object used here: @types/node 20 does not declare it, and
 * the engine is compiled without the DOM library that does.
 */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (
    module: object,
    imports: Record<string, Record<string, unknown>>,
  ) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** A zeroed memory of `pages` 64 KiB pages. */
export const newMemory = (pages: number): WasmMemory => new wasm.Memory({ initial: pages });

const modules = new Map<number, object>();

/** The compiled kernel for a stride (compiled once per stride), bound to a memory of its own. */
export function instantiateL2(stride: number, memory: WasmMemory): ScanFn {
  let m = modules.get(stride);
  if (!m) {
    m = new wasm.Module(emitL2Module(stride));
    modules.set(stride, m);
  }
  const instance = new wasm.Instance(m, { env: { mem: memory } });
  return instance.exports['scan'] as ScanFn;
}
