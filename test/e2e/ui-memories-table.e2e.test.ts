// The Memories list as a person reads it on a laptop's window (1280 px): the "True" column keeps each
// date on one line ("since / Nov 23, / 2026" over four lines made every row four lines tall) while the
// columns of free text wrap. One server and one browser for the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appPerFile, browserPerFile, checkScreen, derivationSettled, navigateInPlace } from './harness.ts';

const context = browserPerFile();
const { app, ui } = appPerFile(context, 'local');

test('the Memories list keeps each date of the "True" column whole beside long statements and subjects', async () => {
  const api = app().api;
  await api.createBrain({ id: 'week', name: 'Week', self: { type: 'person', name: 'Maria Silva' } });
  const said: [string, string][] = [
    ['I started my new job at Lumen Labs today as a data engineer.', '2026-11-23T09:00:00Z'],
    ['My sister Inês is visiting Lisbon next weekend, she arrives on Friday.', '2026-11-23T20:00:00Z'],
    ['I booked a dentist appointment with Dr. Costa for Thursday at 3pm.', '2026-11-24T08:30:00Z'],
    ['Actually my favourite coffee is a cortado.', '2026-11-28T09:00:00Z'],
  ];
  for (const [text, at] of said)
    await api.rememberRecord('week', {
      content: { kind: 'message', speaker: 'Maria Silva', text },
      occurred_at: at,
    });
  await api.rememberRecord('week', {
    content: {
      kind: 'event',
      title: 'Dinner with Tomás',
      starts_at: '2026-11-26T19:30:00Z',
      ends_at: '2026-11-26T22:00:00Z',
      participants: ['Maria Silva', 'Tomás'],
      place: 'Taberna da Rua das Flores',
    },
    occurred_at: '2026-11-26T19:30:00Z',
  });
  await derivationSettled(app(), 'week');

  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/week/memories');
  const table = page.getByRole('table', { name: 'Memories' });
  await table.getByRole('link', { name: /Dinner with Tomás/ }).waitFor();
  // Each "True" cell: its text, the lines it is laid out on, and those of its date (distinct tops of
  // their text's boxes).
  const cells = await table.locator('tbody tr td:nth-child(4)').evaluateAll((tds) =>
    tds.map((td) => {
      const lines = (node: typeof td) => {
        const range = td.ownerDocument.createRange();
        range.selectNodeContents(node);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      };
      const date = td.querySelector('.nowrap');
      return {
        text: td.textContent ?? '',
        lines: lines(td),
        dateLines: date === null ? null : lines(date),
      };
    }),
  );
  assert.equal(cells.length, 6, JSON.stringify(cells));
  for (const cell of cells) {
    assert.match(cell.text, /^since\s\w{3} \d{1,2}, 2026$/u);
    assert.equal(cell.dateLines, 1, `the date of "${cell.text}" is laid out on ${cell.dateLines} lines`);
    // "since" may stand above its date where the statement needs the room, no more.
    assert.ok(cell.lines <= 2, `"${cell.text}" is laid out on ${cell.lines} lines`);
  }
  // The statement keeps its room beside them.
  const statement = await table
    .locator('th')
    .first()
    .evaluate((th) => th.getBoundingClientRect().width);
  assert.ok(statement > 380, `Statement column ${statement}px`);
  await checkScreen(page, 'memories-true-on-one-line');
  assert.deepEqual(problems, []);
});
