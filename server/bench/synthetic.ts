import type { RecordCreate } from '../../engine/contract/index.ts';

/**
 * Deterministic synthetic Records for the scale and write benchmarks: short messages between a cast
 * of people about places, things and plans, spread over two years, so every lane has work to do.
 */
const people = [
  'Alice',
  'Bob',
  'Carmen',
  'Deepak',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Keiko',
  'Liam',
  'Maya',
  'Nico',
  'Olu',
  'Priya',
];
const verbs = [
  'visited',
  'booked',
  'cancelled',
  'recommended',
  'bought',
  'fixed',
  'planned',
  'painted',
  'borrowed',
  'sold',
  'cooked',
  'found',
  'lost',
  'reviewed',
  'shipped',
  'moved',
];
const things = [
  'the dentist appointment',
  'a flight to Lisbon',
  'the garden shed',
  'a vintage guitar',
  'the quarterly report',
  'a pottery class',
  'the bike tyre',
  'dinner at Sora',
  'a hiking trip',
  'the kitchen tiles',
  'concert tickets',
  'the tax return',
  'a puppy named Biscuit',
  'the roof gutter',
  'a chess set',
  'the wedding playlist',
  'a sourdough starter',
  'the car insurance',
  'a telescope',
  'the book club pick',
];
const places = [
  'in Berlin',
  'near the lake',
  'at the office',
  'downtown',
  'in Kyoto',
  'at home',
  'by the station',
  'in the mountains',
  'at the market',
  'in Porto',
];
const tails = [
  'and it went well',
  'but it was late',
  'because the old one broke',
  'for next weekend',
  'with the kids',
  'after a long wait',
  'on a whim',
  'to save money',
  'for the anniversary',
  'despite the rain',
];

/** Mulberry32: a tiny seeded PRNG, so every run writes the same corpus. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/**
 * The rememberRecord body of synthetic message `i`: a speaker, a sentence and a date in 2023-2024;
 * with `threadSize` > 0, every `threadSize` consecutive messages share a thread, as a chat export's
 * do (the prompt lane, the reranker's thread features and its second stage then have work to do).
 */
export function syntheticRecord(i: number, seed = 1, threadSize = 0): RecordCreate {
  const r = rng(seed * 1_000_003 + i);
  const speaker = pick(r, people);
  const other = pick(r, people);
  const text = `${other} ${pick(r, verbs)} ${pick(r, things)} ${pick(r, places)} ${pick(r, tails)} (note ${i}).`;
  const at = Date.UTC(2023, 0, 1) + Math.floor(r() * 730 * 86_400_000);
  const thread = threadSize > 0 ? { thread: `chat ${Math.floor(i / threadSize)}` } : {};
  return { content: { kind: 'message', text, speaker, ...thread }, occurred_at: new Date(at).toISOString() };
}

/** Questions in the shape agents ask, over the same vocabulary. */
export function syntheticQuery(i: number, seed = 7): string {
  const r = rng(seed * 7_919 + i);
  const forms = [
    () => `When did ${pick(r, people)} book ${pick(r, things)}?`,
    () => `What did ${pick(r, people)} say about ${pick(r, things)}?`,
    () => `Who ${pick(r, verbs)} ${pick(r, things)} ${pick(r, places)}?`,
    () => `Anything about ${pick(r, things)} ${pick(r, places)} last month?`,
  ];
  return pick(r, forms)();
}
