import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordCreate } from '../../engine/contract/index.ts';
import type { Engine } from '../../engine/types.ts';
import { bothEngines } from './both-engines.ts';
import { tenant } from './local-helpers.ts';

/*
 * Maya's vault holds `Health.md` ("- Allergy: penicillin (rash, 2019).", tagged #health),
 * which says no "I": its lines were nobody's and her Profile had no health group. Its 107 other lines
 * were all `other`, among them the small talk of her own mail ("Perfect, obrigada!", "Jonas, ok.", her
 * name as a signature), which says nothing of her.
 */
const engines = await bothEngines();
const maya = 'Maya Lindqvist';

async function brainOfMaya(engine: Engine, brain: string) {
  await engine.createBrain(tenant, { id: brain, self: { type: 'person', name: maya } });
  return async (content: RecordCreate['content'], at: string, source = 'obsidian') => {
    const r = await engine.rememberRecord(
      tenant,
      brain,
      { content, source: { name: source }, occurred_at: at },
      {},
    );
    await engine.idle();
    return engine.getRecord(tenant, brain, r.record.id);
  };
}

/** Every line of the Brain's Profile, read `limit` at a time: [group, statement]. */
async function profile(engine: Engine, brain: string, limit = 50) {
  const lines: Array<[string, string]> = [];
  let cursor: string | undefined;
  do {
    const page = await engine.getProfile(tenant, brain, { limit, ...(cursor ? { cursor } : {}) });
    lines.push(...page.lines.map((l): [string, string] => [l.group, l.statement]));
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return lines;
}

for (const [name, openEngine] of engines) {
  describe(`${name}: the Profile of Maya's own notes and mail`, () => {
    it('a note titled or tagged Health is hers: its allergy leads the Profile; a people note stays theirs', async () => {
      const engine = await openEngine();
      try {
        const remember = await brainOfMaya(engine, 'health');
        const health = await remember(
          {
            kind: 'document',
            title: 'Health',
            text: '# Health\n\n- Allergy: penicillin (rash, 2019).\n- GP: Dr. Markus Huber.\n\nTags: #health',
          },
          '2026-09-30T08:00:00Z',
        );
        await remember(
          {
            kind: 'document',
            title: 'Ana Petrović',
            text: '# Ana Petrović\n\nFriend from uni. Allergic to cats.\n\nTags: #people #health',
          },
          '2026-10-01T08:00:00Z',
        );
        assert.deepEqual(await profile(engine, 'health'), [
          ['health', 'Allergy: penicillin (rash, 2019).'],
          ['other', 'GP: Dr. Markus Huber.'],
        ]);
        const m = await engine.getMemory(tenant, 'health', health.memory_ids[0]!);
        assert.deepEqual([m.subject, m.owner.state], [maya, 'self']);
      } finally {
        await engine.close();
      }
    });

    it("a facet note of others' lines, shared, or an article is not hers: no line of her Profile", async () => {
      const engine = await openEngine();
      try {
        const remember = await brainOfMaya(engine, 'others');
        const notes: Array<[string, string]> = [
          ['Health', 'Mum: blood pressure 150/90, on Ramipril 5 mg.\nDad: type 2 diabetes, metformin.'],
          ['Allergies', 'Peanuts (Leo).\nPenicillin (Ana).'],
          ['Blood tests 2026', 'Dad: LDL 190, HbA1c 7.9.\n\nTags: #health'],
          [
            'Health',
            'Intermittent fasting lowers blood pressure in adults over 50, a 2025 study found.\nSource: nytimes.com',
          ],
          ['Medical history', 'Tonsillectomy at 7. Asthma since childhood.\n\nShared vault: family'],
        ];
        for (const [i, [title, text]] of notes.entries())
          await remember({ kind: 'document', title, text }, `2026-10-0${i + 1}T08:00:00Z`);
        await remember(
          { kind: 'document', title: 'Allergies', text: '- Allergy: penicillin (rash, 2019).' },
          '2026-10-09T08:00:00Z',
        );
        assert.deepEqual(await profile(engine, 'others'), [['health', 'Allergy: penicillin (rash, 2019).']]);
      } finally {
        await engine.close();
      }
    });

    it('small talk of her mail is no Profile line, on any page, and stays a Memory', async () => {
      const engine = await openEngine();
      try {
        const remember = await brainOfMaya(engine, 'mail');
        // Whom the Brain knows: Jonas speaks in it, Inês holds a slot.
        await remember(
          { kind: 'message', speaker: 'Jonas Weber', text: 'Are you coming on Friday?' },
          '2026-11-01T09:00:00Z',
          'mbox',
        );
        await remember(
          { kind: 'fact', subject: 'Inês Sousa', predicate: 'home_city', value: 'Madrid' },
          '2026-11-02T09:00:00Z',
          'api',
        );
        const said = [
          'I booked Lisbon for Christmas.',
          'Perfect, obrigada!',
          'Jonas, ok.',
          'Otherwise fine.',
          'Told Inês.',
          'See you tomorrow.',
          maya,
          // A capitalised word the Brain knows no one by says something of her.
          'No Peanuts!',
          'Ja, Vegetarierin.',
          'See you in Berlin, my new home.',
          'I started yoga at Yogawerk.',
        ];
        const ids: string[] = [];
        for (const [i, text] of said.entries())
          ids.push(
            ...(
              await remember(
                { kind: 'message', speaker: maya, text },
                `2026-11-${String(10 + i)}T09:00:00Z`,
                'mbox',
              )
            ).memory_ids,
          );
        const lines = [
          ['other', 'I started yoga at Yogawerk.'],
          ['other', 'See you in Berlin, my new home.'],
          ['other', 'Ja, Vegetarierin.'],
          ['other', 'No Peanuts!'],
          ['other', 'I booked Lisbon for Christmas.'],
        ];
        assert.deepEqual(await profile(engine, 'mail'), lines);
        // A page of one line reads past the lines between them.
        assert.deepEqual(await profile(engine, 'mail', 1), lines);
        const memories = await Promise.all(ids.map((id) => engine.getMemory(tenant, 'mail', id)));
        assert.deepEqual(memories.map((m) => m.statement).sort(), [...said].sort(), 'each is still a Memory');
      } finally {
        await engine.close();
      }
    });
  });
}
