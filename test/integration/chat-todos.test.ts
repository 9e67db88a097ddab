import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createMnemoClient } from '../../server/client/index.ts';
import { waitForDerivation } from '../../server/import/run-import.ts';
import { serveLocal } from './serve-local.ts';

// To-dos as people say them in chat (rules-v71, H8 of use4): "I need to renew my passport" is a task a
// later "Renewed my passport" ticks off, "I still need to buy the vase and call the bank" two, and
// "What is still to do?" leads with what is left, not with "I still eat it though." by its one word.
const root = mkdtempSync(join(tmpdir(), 'mnemo-chat-todos-'));
after(() => rmSync(root, { recursive: true, force: true }));

const week: Array<[string, string, string, string]> = [
  ['2026-11-28T10:05:00Z', 'assistant', 'Lena Kovac', 'I need to renew my passport before January.'],
  ['2026-11-28T10:06:00Z', 'assistant', 'Lena Kovac', 'Remind me to send Sam the Q4 report by Friday.'],
  [
    '2026-11-29T16:00:00Z',
    'home',
    'Lena Kovac',
    "I don't eat meat anymore, since October. Fish is still fine for me.",
  ],
  ['2026-11-29T16:02:00Z', 'home', 'Jonas Weber', 'Noted, no meat for you. I still eat it though.'],
  ['2026-12-03T09:30:00Z', 'assistant', 'Lena Kovac', 'Sent Sam the Q4 report, that one is done.'],
  [
    '2026-12-03T17:00:00Z',
    'home',
    'Lena Kovac',
    'Renewed my passport today, finally done. The new one is valid until 2036.',
  ],
  [
    '2026-12-04T18:00:00Z',
    'home',
    'Lena Kovac',
    'I still need to buy the vase for Petra and call the bank about the mortgage.',
  ],
  [
    '2026-12-04T18:02:00Z',
    'home',
    'Jonas Weber',
    'I will buy the vase tomorrow at the market. You call the bank.',
  ],
  ['2026-12-05T09:00:00Z', 'home', 'Jonas Weber', 'Bought the vase for mum, 55 EUR. Wrapped it too.'],
];

test('to-dos said in chat are kept task by task, ticked off by her deeds, and lead what is still to do', async () => {
  const { server, key } = await serveLocal(root);
  try {
    const client = createMnemoClient({ baseUrl: server.url, apiKey: key });
    await client.createBrain({ id: 'me', self: { type: 'person', name: 'Lena Kovac' } });
    const ids: string[] = [];
    for (const [occurred_at, thread, speaker, text] of week)
      ids.push(
        (
          await client.rememberRecord('me', {
            content: { kind: 'message', text, speaker, thread },
            occurred_at,
          })
        ).record.id,
      );
    await waitForDerivation(client, 'me');
    const tasks = (await client.listMemories('me', { limit: 100 })).data
      .map((m) => m.statement)
      .filter((s) => /^(?:To do|Done): /u.test(s))
      .sort();
    // Jonas's vase, for his mum, is his deed: hers is still to do.
    assert.deepEqual(tasks, [
      'Done: renew my passport before January',
      'Done: send Sam the Q4 report by Friday',
      'To do: buy the vase for Petra',
      'To do: call the bank about the mortgage',
    ]);
    const vase = ids[6]!;
    for (const query of [
      'What is still to do?',
      'what do I still need to do?',
      "What's still on my to-do list?",
    ]) {
      const { context } = await client.createContext('me', { query });
      assert.equal(context.status, 'ready');
      const trace = await client.getTrace('me', context.id);
      assert.deepEqual(
        trace.lanes.find((l) => l.name === 'tasks')?.candidates.map((c) => c.record_id),
        [vase],
        query,
      );
      assert.equal(context.citations[0]?.record_id, vase, `${query}: ${context.text ?? ''}`);
    }
  } finally {
    await server.close();
  }
});
