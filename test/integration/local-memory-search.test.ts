import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createReferenceEngine } from '../../engine/reference/index.ts';
import { tenant, withBrain } from './local-helpers.ts';

const said = (text: string) => ({ content: { kind: 'message' as const, speaker: 'Ana', text } });
const statements = [
  'My sister Marta lives in Lisbon and works as a nurse.',
  'Моя сестра живёт в Москве.',
  'Wir fahren über Weihnachten nach Köln.',
  'The ﬁnal exam is on Friday, 10:00.',
];
const searches: [string, number[]][] = [
  ['Marta nurse', [0]],
  ['nurse marta', [0]],
  ['NURSE', [0]],
  ['sist', [0]],
  ['Marta Porto', []],
  ['москве', [1]],
  ['МОСКВЕ СЕСТРА', [1]],
  ['ÜBER', [2]],
  ['uber koln', [2]],
  ['final', [3]],
  [',', [3]],
  ['10:00', [3]],
];

/** What the local engine derives besides each statement as said, and which searches find it. */
const derivedToo: Record<string, string[]> = { sist: ["Ana's sister is Marta"] };

describe('searching Memories: every word, any order, case and accents ignored in every script', () => {
  it('local engine', async () => {
    const { engine, remember } = await withBrain();
    for (const s of statements) await remember(said(s));
    await engine.idle();
    for (const [q, want] of searches) {
      const found = (await engine.listMemories(tenant, 'b', { q, limit: 50 })).data.map((m) => m.statement);
      const expected = [...want.map((i) => statements[i]!), ...(derivedToo[q] ?? [])];
      assert.deepEqual(found.sort(), expected.sort(), `q=${q}`);
    }
  });

  it('reference engine, the same way', async () => {
    const engine = createReferenceEngine();
    await engine.createBrain(tenant, { id: 'b' });
    for (const s of statements) await engine.rememberRecord(tenant, 'b', said(s), {});
    for (const [q, want] of searches) {
      const found = (await engine.listMemories(tenant, 'b', { q, limit: 50 })).data.map((m) => m.statement);
      assert.deepEqual(found.sort(), want.map((i) => statements[i]!).sort(), `q=${q}`);
    }
  });
});
