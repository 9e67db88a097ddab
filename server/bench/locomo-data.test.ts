import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RecordCreate } from '../../engine/contract/index.ts';
import { loadLocomo, locomoTurnRecord, normaliseEvidence, parseSessionDate } from './locomo-data.ts';
import { aggregate, percentile, recallAt } from './locomo-metrics.ts';

describe('LoCoMo data and metrics', () => {
  it('parses session dates as h:mm a on d MMMM, yyyy', () => {
    assert.equal(parseSessionDate('1:56 pm on 8 May, 2023'), '2023-05-08T13:56:00.000Z');
    assert.equal(parseSessionDate('12:04 am on 19 January, 2024'), '2024-01-19T00:04:00.000Z');
    assert.equal(parseSessionDate('12:30 pm on 1 June, 2023'), '2023-06-01T12:30:00.000Z');
    assert.throws(() => parseSessionDate('yesterday'), /unreadable/);
  });

  it('normalises evidence ids and drops those naming no turn', () => {
    const known = new Set(['D1:3', 'D2:1', 'D10:12']);
    assert.deepEqual(normaliseEvidence(['D1:3; D2:1', 'D:10:012', 'D1:03', 'D9:9', 'junk'], known), [
      'D1:3',
      'D2:1',
      'D10:12',
    ]);
    assert.deepEqual(normaliseEvidence(undefined, known), []);
  });

  it('skips a turn with no text and no image, and the evidence naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'locomo-'));
    try {
      const path = join(dir, 'sample.json');
      const session = [
        { speaker: 'Ana', dia_id: 'D1:1', text: 'I adopted a cat' },
        { speaker: 'Ben', dia_id: 'D1:2', text: '  ' },
        { speaker: 'Ben', dia_id: 'D1:3', text: '', blip_caption: 'a photo of a cat' },
      ];
      const qa = [
        { question: 'What pet?', answer: 'cat', evidence: ['D1:1', 'D1:2'], category: 4 },
        { question: 'Who said nothing?', evidence: ['D1:2'], category: 5 },
      ];
      const conversation = {
        speaker_a: 'Ana',
        speaker_b: 'Ben',
        session_1: session,
        session_1_date_time: '1:56 pm on 8 May, 2023',
        session_2_date_time: '2:00 pm on 9 May, 2023',
      };
      writeFileSync(path, JSON.stringify([{ sample_id: 's1', conversation, qa }]));
      const [conv] = loadLocomo(path);
      assert.deepEqual(
        conv?.turns.map((t) => [t.diaId, t.text]),
        [
          ['D1:1', 'I adopted a cat'],
          ['D1:3', ' [shares image: a photo of a cat]'],
        ],
      );
      assert.deepEqual(
        conv?.questions.map((q) => q.evidence),
        [['D1:1']],
        'the question left with no evidence is skipped',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stores a turn as a threaded message, or as a dated note naming its speaker', () => {
    const turn = {
      diaId: 'D2:5',
      speaker: 'Ana',
      text: 'Back from Lisbon',
      session: 2,
      occurredAt: '2023-05-08T13:56:04.000Z',
    };
    const message = RecordCreate.parse(locomoTurnRecord(turn));
    assert.deepEqual(message.content, {
      kind: 'message',
      text: 'Back from Lisbon',
      speaker: 'Ana',
      thread: 'session_2',
    });
    const note = RecordCreate.parse(locomoTurnRecord(turn, 'documents'));
    assert.deepEqual(note.content, { kind: 'document', text: 'Ana: Back from Lisbon' });
    assert.equal(note.occurred_at, turn.occurredAt);
  });

  it('computes frac/any/all at k over distinct ranked turns', () => {
    const q = { category: 1, evidence: ['a', 'b'], ranked: ['x', 'a', 'y', 'b'] };
    assert.deepEqual(recallAt(q, 1), { frac: 0, any: 0, all: 0 });
    assert.deepEqual(recallAt(q, 2), { frac: 0.5, any: 1, all: 0 });
    assert.deepEqual(recallAt(q, 4), { frac: 1, any: 1, all: 1 });
    const agg = aggregate([q, { category: 1, evidence: ['z'], ranked: ['z'] }], [2]);
    assert.deepEqual(agg, { 'frac@2': 0.75, 'any@2': 1, 'all@2': 0.5 });
  });

  it('takes nearest-rank percentiles', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i);
    assert.equal(percentile(xs, 50), 50);
    assert.equal(percentile(xs, 95), 95);
    assert.equal(percentile(xs, 99), 99);
    assert.equal(percentile([], 95), 0);
  });
});
