import assert from 'node:assert/strict';
import { test } from 'node:test';
import { earlierImportOrder, earlierImportZone, type EarlierRecord } from './earlier-zone.ts';
import { parseWhatsapp } from './formats/whatsapp.ts';
import { collect, writeTree } from './test-support.ts';

const chat = ['10/03/2024, 01:30 - Ana: before the change', '10/03/2024, 03:30 - Ana: after the change'];

async function recordsOf(
  path: string,
  timeZone: string,
  dateOrder?: 'dmy' | 'mdy',
): Promise<EarlierRecord[]> {
  const { records } = await collect(parseWhatsapp(path, { timeZone, ...(dateOrder ? { dateOrder } : {}) }));
  return records.map((r) => ({
    externalId: r.body.source!.external_id!,
    text: (r.body.content as { text: string }).text,
  }));
}

const from = (records: EarlierRecord[]) =>
  async function* () {
    yield* records;
  };

test('the zone of an earlier import is found across a DST change; none when there is nothing to follow', async () => {
  const { root, remove } = writeTree({ 'WhatsApp Chat with Ana.txt': chat.join('\n') });
  try {
    const path = `${root}/WhatsApp Chat with Ana.txt`;
    // New York moved its clocks on 10 March 2024: a fixed offset cannot place both messages.
    const earlier = await recordsOf(path, 'America/New_York');
    const found = await earlierImportZone(parseWhatsapp, path, {}, from(earlier), 'UTC');
    assert.ok(found !== null);
    assert.deepEqual(
      await recordsOf(path, found.zone),
      earlier,
      `${found.zone} reads the chat as New York did`,
    );

    assert.equal(await earlierImportZone(parseWhatsapp, path, {}, from(earlier), 'America/New_York'), null);
    assert.equal(await earlierImportZone(parseWhatsapp, path, {}, from([]), 'UTC'), null);
    const otherChat = earlier.map((r) => ({ ...r, externalId: r.externalId.replace(':Ana:', ':Bo:') }));
    assert.equal(await earlierImportZone(parseWhatsapp, path, {}, from(otherChat), 'UTC'), null);
  } finally {
    remove();
  }
});

test('an earlier import of winter messages only: the zone chosen keeps daylight saving time as the machine’s does, and says it guessed', async () => {
  const winter = ['15/01/2024, 09:30 - Ana: Bom dia', '16/01/2024, 10:00 - Ana: Cold today'];
  const t = writeTree({
    'before/WhatsApp Chat with Ana.txt': winter.join('\n'),
    'now/WhatsApp Chat with Ana.txt': [...winter, '20/07/2024, 09:00 - Ana: Beach day'].join('\n'),
  });
  try {
    const earlier = await recordsOf(`${t.root}/before/WhatsApp Chat with Ana.txt`, 'Europe/Lisbon');
    const path = `${t.root}/now/WhatsApp Chat with Ana.txt`;
    const found = await earlierImportZone(parseWhatsapp, path, {}, from(earlier), 'America/New_York');
    assert.ok(found !== null);
    assert.equal(found.ambiguous, true, 'UTC, Lisbon, London and others fit January alike');
    // Read as Lisbon reads it: 09:00 in July is 08:00Z (UTC would give 09:00Z, an hour off).
    const july = (await recordsOf(path, found.zone)).find((r) => r.text === 'Beach day')!;
    assert.match(july.externalId, /2024-07-20T08:00:00\.000Z/, found.zone);
  } finally {
    t.remove();
  }
});

test('the date order of an earlier import is found when the chat cannot tell it; none when it can, or both are stored', async () => {
  const ambiguous = ['03/12/2024, 09:30 - Ana: Tickets?', '04/12/2024, 20:00 - Ana: Bought them'];
  const t = writeTree({
    'WhatsApp Chat with Ana.txt': ambiguous.join('\n'),
    'told/WhatsApp Chat with Ana.txt': [...ambiguous, '25/12/2024, 10:00 - Ana: Merry Christmas'].join('\n'),
  });
  try {
    const path = `${t.root}/WhatsApp Chat with Ana.txt`;
    const mdy = await recordsOf(path, 'Asia/Tokyo', 'mdy');
    const dmy = await recordsOf(path, 'America/Chicago', 'dmy');
    const order = (p: string, earlier: EarlierRecord[]) =>
      earlierImportOrder(parseWhatsapp, p, {}, from(earlier));
    assert.equal(await order(path, mdy), 'mdy', 'found in whatever zone it was read');
    assert.equal(await order(path, dmy), 'dmy');
    assert.equal(await order(path, []), null, 'nothing imported before');
    assert.equal(await order(path, [...mdy, ...dmy]), null, 'imported both ways: nothing to follow');
    assert.equal(await order(`${t.root}/told/WhatsApp Chat with Ana.txt`, mdy), null, 'a day over 12 tells');
  } finally {
    t.remove();
  }
});
