// `npx tsx scripts/redactor-cost.ts [ROOT]`: what the sync redactor (engine/local/sync/redact.ts) costs
// per Record, as a sync pays it: the sentences of its tests, in English, Croatian, Portuguese and German, each
// redacted as a message Record, timed over many rounds after a warm-up; and what loading it costs.
// ROOT (default: this checkout) lets another checkout be measured the same way, for a before/after.
import { performance } from 'node:perf_hooks';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { createRedactor as CreateRedactor } from '../engine/local/sync/redact.ts';

const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..'));
const loadStart = performance.now();
const { createRedactor } = (await import(pathToFileURL(join(root, 'engine/local/sync/redact.ts')).href)) as {
  createRedactor: typeof CreateRedactor;
};
const loadMs = performance.now() - loadStart;

const texts = [
  'Picked up the keys for Vlaška 17, 3rd floor, 10000 Zagreb; landlord Goran Babić, call him on 091 234 5678.',
  'Marko and Lea argued about money; my rent is 850 EUR and my Infobip salary is 3,200 EUR.',
  'Goran is back from Split. Lunch with the team, Goran paid.',
  'Had a call with Infobip about the offer; meeting with Atlas on Monday at 10:30.',
  'Flew Croatia Airlines to Lisbon, then with Tomislav and Željka to Porto.',
  'Mark my words: May will be busy. Will is coming on Friday.',
  'Stan je u Ilici 42. Ivana je stigla iz Splita, a Luka kasni.',
  'O João chegou ontem; Conceição pagou o almoço na Rua Augusta 15, 1100-148 Lisboa.',
  'Read chapter 5 and page 12 before Monday 3; Python 3.12 and PostgreSQL 15 on Node 20.',
  'Sent the invoice to ana.kos@example.com and https://example.org/a?b=1 from 192.168.1.10.',
  'A long note about the week: the kids were sick, the car broke down again, and the garden needs work before the rain comes.',
  'Wir wohnen in der Hauptstraße 5, 10115 Berlin; Jürgen sagt, die Miete ist 1.200 €.',
  'Goranu sam rekao da Marku javi; s Željkom idem kod Gorana, a Infobip je zvao.',
];
// With the homes and employers the Brain knows (a checkout before them takes no third argument).
const redactor = createRedactor({ self: 'Lea Horvat', others: ['Marko', 'Ana Kos'] }, Buffer.alloc(32, 7), [
  'Infobip',
  'Zagreb',
  'Zagreb, Croatia',
  'Croatia',
]);
const record = (text: string) => ({
  id: 'rec_01M8GA4DNAKFBAD9VVVCSJ3164',
  content: { kind: 'message' as const, text },
  visibility: 'redacted_summary' as const,
  occurred_at: '2026-12-01T12:00:00.000Z',
});
const records = texts.map(record);
for (let k = 0; k < 200; k += 1) for (const r of records) redactor.redact(r);
// The best of five runs: the machine may be busy with other work during any one of them.
const rounds = 400;
let perRecordUs = Infinity;
for (let run = 0; run < 5; run += 1) {
  const started = performance.now();
  for (let k = 0; k < rounds; k += 1) for (const r of records) redactor.redact(r);
  perRecordUs = Math.min(perRecordUs, ((performance.now() - started) * 1000) / (rounds * records.length));
}
const chars = texts.reduce((n, t) => n + t.length, 0) / texts.length;
console.log(
  `${root}: ${perRecordUs.toFixed(1)} µs per Record (${Math.round(chars)} characters on average, ` +
    `best of 5 runs of ${rounds * records.length} Records); loading the redactor ${loadMs.toFixed(0)} ms`,
);
