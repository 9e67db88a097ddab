import { randomBytes } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
let lastTime = 0;
let lastRandom: Uint8Array = new Uint8Array(10);

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
    random = randomBytes(10);
  }
  lastTime = now;
  lastRandom = random;
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i += 1) {
    time = alphabet[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let bits = 0n;
  for (const b of random) bits = (bits << 8n) | BigInt(b);
  let rand = '';
  for (let i = 0; i < 16; i += 1) {
    rand = alphabet[Number(bits & 31n)] + rand;
    bits >>= 5n;
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
