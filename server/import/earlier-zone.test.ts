import assert from 'node:assert/strict';
import { test } from 'node:test';
import { earlierImportZone, type EarlierRecord } from './earlier-zone.ts';
import { parseWhatsapp } from './formats/whatsapp.ts';
import { collect, writeTree } from './test-support.ts';

const chat = ['10/03/2024, 01:30 - Ana: before the change', '10/03/2024, 03:30 - Ana: after the change'];

async function recordsOf(path: string, timeZone: string): Promise<EarlierRecord[]> {
  const { records } = await collect(parseWhatsapp(path, { timeZone }));
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
    const zone = await earlierImportZone(parseWhatsapp, path, {}, from(earlier), 'UTC');
    assert.ok(zone !== null);
    assert.deepEqual(await recordsOf(path, zone), earlier, `${zone} reads the chat as New York did`);

    assert.equal(await earlierImportZone(parseWhatsapp, path, {}, from(earlier), 'America/New_York'), null);
    assert.equal(await earlierImportZone(parseWhatsapp, path, {}, from([]), 'UTC'), null);
    const otherChat = earlier.map((r) => ({ ...r, externalId: r.externalId.replace(':Ana:', ':Bo:') }));
    assert.equal(await earlierImportZone(parseWhatsapp, path, {}, from(otherChat), 'UTC'), null);
  } finally {
    remove();
  }
});
