import assert from 'node:assert/strict';
import { test } from 'node:test';
import { earlierReading, type EarlierRecord } from './earlier-zone.ts';
import type { ParseOptions } from './import-item.ts';
import { chatReadings, parseWhatsapp, readChat, readsBothWays } from './formats/whatsapp.ts';
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

/** The Brain's Records as EarlierRecords, each look at a range of them told to `looks`. */
const from = (records: EarlierRecord[], looks: [string, string][] = []) =>
  async function* (since?: string, until?: string) {
    if (since !== undefined && until !== undefined) looks.push([since, until]);
    yield* records;
  };

/** earlierReading of the chat at PATH, read through once as an import reads it. */
async function lookAt(path: string, earlier: EarlierRecord[], preferred: string, batch?: number) {
  const chat = await readChat(path);
  return earlierReading(
    (readings) => chatReadings(chat, path, readings),
    {},
    from(earlier),
    preferred,
    readsBothWays(chat),
    batch,
  );
}

const earlierZone = async (path: string, earlier: EarlierRecord[], preferred: string) =>
  (await lookAt(path, earlier, preferred)).zone;

test('the zone of an earlier import is found across a DST change; none when there is nothing to follow', async () => {
  const { root, remove } = writeTree({ 'WhatsApp Chat with Ana.txt': chat.join('\n') });
  try {
    const path = `${root}/WhatsApp Chat with Ana.txt`;
    // New York moved its clocks on 10 March 2024: a fixed offset cannot place both messages.
    const earlier = await recordsOf(path, 'America/New_York');
    const found = await earlierZone(path, earlier, 'UTC');
    assert.ok(found !== null);
    assert.deepEqual(
      await recordsOf(path, found.zone),
      earlier,
      `${found.zone} reads the chat as New York did`,
    );

    assert.equal(await earlierZone(path, earlier, 'America/New_York'), null);
    assert.equal(await earlierZone(path, [], 'UTC'), null);
    const otherChat = earlier.map((r) => ({ ...r, externalId: r.externalId.replace(':Ana:', ':Bo:') }));
    assert.equal(await earlierZone(path, otherChat, 'UTC'), null);
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
    const found = await earlierZone(path, earlier, 'America/New_York');
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
    const order = async (p: string, earlier: EarlierRecord[]) => (await lookAt(p, earlier, 'UTC')).order;
    assert.equal(await order(path, mdy), 'mdy', 'found in whatever zone it was read');
    assert.equal(await order(path, dmy), 'dmy');
    assert.equal(await order(path, []), null, 'nothing imported before');
    assert.equal(await order(path, [...mdy, ...dmy]), null, 'imported both ways: nothing to follow');
    assert.equal(await order(`${t.root}/told/WhatsApp Chat with Ana.txt`, mdy), null, 'a day over 12 tells');
    // Read month first, in Tokyo: the zone of that reading is found in the same read of the chat.
    const both = await lookAt(path, mdy, 'UTC');
    assert.equal(both.order, 'mdy');
    assert.ok(both.zone !== null);
    assert.deepEqual(await recordsOf(path, both.zone.zone, 'mdy'), mdy, both.zone.zone);
  } finally {
    t.remove();
  }
});

test('a long chat is paired with the Brain a batch of messages at a time, and an earlier import of its end is still found', async () => {
  // Ten days, a message a day: each batch of three looks at the Brain only around its own three days.
  const days = Array.from(
    { length: 10 },
    (_, d) => `${String(d + 13).padStart(2, '0')}/03/2024, 09:00 - Ana: day ${d + 1}`,
  );
  const t = writeTree({
    'before/WhatsApp Chat with Ana.txt': days.slice(8).join('\n'),
    'now/WhatsApp Chat with Ana.txt': days.join('\n'),
  });
  try {
    const earlier = await recordsOf(`${t.root}/before/WhatsApp Chat with Ana.txt`, 'Asia/Kolkata');
    const path = `${t.root}/now/WhatsApp Chat with Ana.txt`;
    const chat = await readChat(path);
    const looks: [string, string][] = [];
    const found = await earlierReading(
      (readings) => chatReadings(chat, path, readings),
      {},
      from(earlier, looks),
      'UTC',
      false,
      3,
    );
    assert.ok(found.zone !== null, 'the last batch pairs the earlier import');
    assert.deepEqual((await recordsOf(path, found.zone.zone)).slice(8), earlier);
    assert.equal(looks.length, 4, 'batches of 3, 3, 3 and 1');
    const hours = (since: string, until: string) => (Date.parse(until) - Date.parse(since)) / 3_600_000;
    // Two days between a batch's first and last message, and 15 hours either side for any zone.
    for (const [since, until] of looks) assert.ok(hours(since, until) <= 48 + 30, `${since} to ${until}`);
  } finally {
    t.remove();
  }
});

test('a Brain without a WhatsApp message is not looked at, nor the chat read, for an earlier import', async () => {
  const { root, remove } = writeTree({ 'WhatsApp Chat with Ana.txt': chat.join('\n') });
  try {
    const path = `${root}/WhatsApp Chat with Ana.txt`;
    let reads = 0;
    const read = (readings: readonly ParseOptions[]) => {
      reads += 1;
      return chatReadings(chatRead, path, readings);
    };
    const chatRead = await readChat(path);
    const looks: [string, string][] = [];
    assert.deepEqual(await earlierReading(read, {}, from([], looks), 'UTC', true), {
      order: null,
      zone: null,
    });
    assert.deepEqual([reads, looks.length], [0, 0]);
    const other = await recordsOf(path, 'Asia/Tokyo');
    const otherChat = other.map((r) => ({ ...r, externalId: r.externalId.replace(':Ana:', ':Bo:') }));
    assert.deepEqual(await earlierReading(read, {}, from(otherChat, looks), 'UTC', true), {
      order: null,
      zone: null,
    });
    assert.deepEqual([reads, looks.length], [1, 1], 'another chat of the Brain: this one is read, once');
  } finally {
    remove();
  }
});
