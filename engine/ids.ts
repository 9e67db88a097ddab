import { randomFillSync } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
let lastTime = 0;
let lastRandom: Uint8Array = new Uint8Array(10);

// Random bytes drawn 100 ids at a time: a call into the OS's generator per id (each Record, Memory and
// citation gets one) cost more than the rest of newId. Each id copies its bytes out of the pool.
const pool = new Uint8Array(1000);
let pooled = 0;
function randomTen(): Uint8Array {
  if (pooled === 0) {
    randomFillSync(pool);
    pooled = pool.length;
  }
  pooled -= 10;
  return pool.slice(pooled, pooled + 10);
}

/**
 * ULID-style ids (time then randomness, Crockford base32), monotonic within a millisecond, so sorting
 * ids sorts by creation: "full read, ordered by id" is then also oldest first.
 */
export function newId(prefix: string, now = Date.now()): string {
  let random: Uint8Array;
  if (now <= lastTime) {
    now = lastTime;
    random = increment(lastRandom);
  } else {
    random = randomTen();
  }
  lastTime = now;
  lastRandom = random;
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i += 1) {
    time = alphabet[t % 32] + time;
    t = Math.floor(t / 32);
  }
  // 80 bits as 16 base32 digits, most significant first: 5 bytes (40 bits, exact in a double) give 8.
  let rand = '';
  for (let half = 0; half < 10; half += 5) {
    let bits = 0;
    for (let i = half; i < half + 5; i += 1) bits = bits * 256 + random[i]!;
    let digits = '';
    for (let i = 0; i < 8; i += 1) {
      digits = alphabet[bits % 32] + digits;
      bits = Math.floor(bits / 32);
    }
    rand += digits;
  }
  return `${prefix}_${time}${rand}`;
}

function increment(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes);
  for (let i = out.length - 1; i >= 0; i -= 1) {
    if (out[i]! < 255) {
      out[i]! += 1;
      return out;
    }
    out[i] = 0;
  }
  return out;
}
