import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runLocomo } from '../../server/bench/locomo-bench.ts';

/** Two tiny conversations in LoCoMo's exact format, with the quirks the README warns about. */
function sample(id: string, topic: string) {
  return {
    sample_id: id,
    conversation: {
      speaker_a: 'Ana',
      speaker_b: 'Ben',
      session_1_date_time: '1:56 pm on 8 May, 2023',
      session_1: [
        { speaker: 'Ana', dia_id: 'D1:1', text: `I finally adopted a ${topic} yesterday!` },
        { speaker: 'Ben', dia_id: 'D1:2', text: 'That is wonderful news.' },
        {
          speaker: 'Ana',
          dia_id: 'D1:3',
          text: 'Look at this photo.',
          blip_caption: 'a photo of a sunset over a lighthouse',
        },
      ],
      session_2_date_time: '10:00 am on 2 June, 2023',
      session_2: [
        { speaker: 'Ben', dia_id: 'D2:1', text: 'I started learning the cello last week.' },
        { speaker: 'Ana', dia_id: 'D2:2', text: 'Great, music suits you.' },
      ],
      // More date keys than sessions: must be ignored.
      session_3_date_time: '9:00 am on 1 July, 2023',
    },
    qa: [
      { question: `When did Ana adopt the ${topic}?`, answer: '7 May 2023', evidence: ['D1:1'], category: 2 },
      {
        question: 'What instrument is Ben learning, the cello?',
        answer: 'cello',
        evidence: ['D:2:01'],
        category: 4,
      },
      {
        question: 'What did the lighthouse sunset photo show?',
        answer: 'sunset',
        evidence: ['D1:3; D1:2'],
        category: 1,
      },
      { question: 'Which ocean did Ana sail?', answer: 'none', evidence: ['D9:9'], category: 3 },
      { question: 'Did Ben adopt a cello?', adversarial_answer: 'no', evidence: ['D2:1'], category: 5 },
    ],
  };
}

describe('bench locomo harness (reference engine, synthetic two-conversation file)', () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'mnemo-bench-test-'));
    file = join(dir, 'mini-locomo.json');
    writeFileSync(file, JSON.stringify([sample('conv-a', 'kitten'), sample('conv-b', 'parrot')]));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prints one line per scope with the fixed fields, scoring cited turns by dia_id', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const dump = join(dir, 'dump.jsonl');
    await runLocomo({
      data: file,
      ks: [1], // the fixed 5, 10 and 25 are always reported as well
      engine: 'reference',
      dump,
      out: (l) => lines.push(l),
      progress: () => {},
    });
    assert.deepEqual(
      lines.map((l) => l['scope']),
      ['cat1-4', 'cat1', 'cat2', 'cat3', 'cat4', 'cat5'],
    );
    for (const l of lines) {
      assert.equal(l['benchmark'], 'locomo');
      for (const f of [
        'questions',
        'abstained',
        'frac@5',
        'frac@10',
        'frac@25',
        'any@10',
        'all@10',
        'p50_ms',
        'p95_ms',
        'p99_ms',
        'ingest_s',
        'embedder',
      ])
        assert.ok(f in l, `${String(l['scope'])} lacks ${f}`);
      for (const [k, v] of Object.entries(l))
        if (/^(frac|any|all)@/.test(k))
          assert.ok((v as number) >= 0 && (v as number) <= 1, `${k}=${String(v)}`);
    }
    const by = Object.fromEntries(lines.map((l) => [l['scope'], l]));
    assert.equal(by['cat1-4']!['turns_as'], 'messages');
    // Every cat1-4 question's evidence is found (below), so no Context abstained.
    assert.equal(by['cat1-4']!['abstained'], 0);
    // The question with evidence naming no turn is skipped: 4 scored per conversation, 3 of them cat1-4.
    assert.equal(by['cat1-4']!['questions'], 6);
    assert.equal(by['cat3']!['questions'], 0);
    // "kitten"/"parrot" and "cello" occur only in their evidence turn, so the substring engine ranks it first.
    assert.equal(by['cat2']!['frac@1'], 1);
    assert.equal(by['cat4']!['frac@1'], 1);
    // Two evidence turns, one reachable only through the appended caption ("lighthouse"): half at k=1.
    assert.equal(by['cat1']!['frac@1'], 0.5);
    assert.equal(by['cat1']!['any@1'], 1);
    assert.equal(by['cat1']!['all@1'], 0);

    // --dump: one line per scored question, with what was missed at 10.
    const rows = readFileSync(dump, 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            sample: string;
            category: number;
            evidence: string[];
            ranked: string[];
            missed_at_10: string[];
            abstained: string | null;
          },
      );
    assert.equal(rows.length, 8);
    const cello = rows.find((r) => r.sample === 'conv-b' && r.category === 4)!;
    assert.deepEqual(cello.evidence, ['D2:1']);
    assert.equal(cello.ranked[0], 'D2:1');
    assert.deepEqual(cello.missed_at_10, []);
    assert.equal(cello.abstained, null);
  });

  it('runs as `mnemo bench locomo`: JSON lines on stdout, progress on stderr; --turns-as documents', () => {
    const r = spawnSync(
      process.execPath,
      [
        'bin/mnemo.mjs',
        'bench',
        'locomo',
        '--data',
        file,
        '--engine',
        'reference',
        '--k',
        '3',
        '--turns-as',
        'documents',
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, MNEMO_LOG: '' },
        timeout: 60_000,
      },
    );
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(lines.length, 6);
    // --k adds a cut-off; the fixed fields stay.
    assert.deepEqual(
      Object.keys(lines[0]!).filter((k) => k.startsWith('frac@')),
      ['frac@3', 'frac@5', 'frac@10', 'frac@25'],
    );
    assert.equal(lines[0]!['turns_as'], 'documents');
    // Stored as notes ("Ben: I started learning the cello..."), the turn is still found and scored.
    assert.equal(lines.find((l) => l['scope'] === 'cat4')!['frac@5'], 1);
    assert.match(r.stderr, /locomo: conv-b \(2\/2\)/);
  });
});
