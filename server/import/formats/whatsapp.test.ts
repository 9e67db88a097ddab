import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { collect, writeTree } from '../test-support.ts';
import { readFileSync } from 'node:fs';
import type { ImportItem, ParseOptions } from '../import-item.ts';
import type { ByteSource } from '../text-lines.ts';
import { chatItems, parseWhatsapp, readChat } from './whatsapp.ts';

// Android export, day-month order, 24 h, CRLF, a BOM; Berlin summer and winter time.
const android = [
  '\ufeff02/01/2024, 09:15 - Messages and calls are end-to-end encrypted. No one outside of this chat, not even WhatsApp, can read or listen to them.',
  '02/01/2024, 09:15 - Anna: Happy new year!!',
  '02/01/2024, 09:16 - Sam Lee: Same to you',
  'Dinner on the 14th?',
  '',
  'I booked Tasca do Chico.',
  '02/01/2024, 09:16 - Sam Lee: Same to you',
  '15/07/2024, 21:40 - Anna: <Media omitted>',
  '15/07/2024, 21:41 - Anna: This message was deleted',
  '31/02/2024, 10:00 - Anna: impossible date',
  '16/07/2024, 08:00 - Anna: See you there <This message was edited>',
].join('\r\n');

test('Android export: multi-line messages, notices, media, time zone, duplicate lines', async () => {
  const t = writeTree({ 'WhatsApp Chat with Anna.txt': android });
  try {
    const { records, skips } = await collect(
      parseWhatsapp(join(t.root, 'WhatsApp Chat with Anna.txt'), {
        timeZone: 'Europe/Berlin',
        selfName: 'Sam Lee',
      }),
    );
    const bodies = records.map((r) => r.body);
    assert.equal(bodies.length, 5);
    assert.deepEqual(bodies[0], {
      content: { kind: 'message', text: 'Happy new year!!', speaker: 'Anna', thread: 'WhatsApp: Anna' },
      source: { name: 'whatsapp', external_id: 'whatsapp:Anna:2024-01-02T08:15:00.000Z:Anna:1' },
      occurred_at: '2024-01-02T09:15:00+01:00',
    });
    assert.deepEqual(bodies[1]!.content, {
      kind: 'message',
      text: 'Same to you\nDinner on the 14th?\n\nI booked Tasca do Chico.',
      speaker: 'self',
      thread: 'WhatsApp: Anna',
    });
    assert.equal(
      bodies[2]!.source.external_id,
      'whatsapp:Anna:2024-01-02T08:16:00.000Z:Sam Lee:2',
      'same minute, same sender: ordinal',
    );
    assert.equal(bodies[3]!.occurred_at, '2024-07-15T21:40:00+02:00', 'summer time is UTC+2');
    // Keyed by the instant, as when the offset was not kept.
    assert.equal(records[3]!.occurredAtInKey, '2024-07-15T19:40:00.000Z');
    assert.equal((bodies[3]!.content as { text: string }).text, '[attachment: omitted media]');
    assert.equal((bodies[4]!.content as { text: string }).text, 'See you there');
    assert.deepEqual(
      skips.map((s) => `${s.ref}: ${s.reason}`),
      [
        'line 1: system message (no sender)',
        'line 9: deleted message',
        'line 10: invalid date or time in the message header',
      ],
    );
  } finally {
    t.remove();
  }
});

// iOS export of a group, US month-day order with AM/PM and a narrow no-break space, bracketed headers.
const ios = [
  '[1/5/24, 9:04:05\u202fPM] Book club: \u200eMessages and calls are end-to-end encrypted.',
  '[1/5/24, 9:04:05\u202fPM] Book club: \u200eAnna added Ben',
  '[1/5/24, 9:05:10\u202fPM] Ben Ortiz: Next book: Piranesi',
  '[1/13/24, 12:01:00\u202fAM] \u200eAnna: \u200e<attached: 00000012-PHOTO-2024-01-13-00-01-00.jpg>',
  '[1/13/24, 12:30:00\u202fPM] Anna: \u200eimage omitted',
].join('\n');

test('iOS export: bracketed headers, month-day order found from the data, AM/PM, attachments', async () => {
  const t = writeTree({ 'Book club/_chat.txt': ios });
  try {
    const { records, skips } = await collect(
      parseWhatsapp(join(t.root, 'Book club/_chat.txt'), { timeZone: 'America/New_York' }),
    );
    assert.deepEqual(
      records.map((r) => [
        r.body.occurred_at,
        (r.body.content as { speaker: string }).speaker,
        (r.body.content as { text: string }).text,
      ]),
      [
        ['2024-01-05T21:05:10-05:00', 'Ben Ortiz', 'Next book: Piranesi'],
        ['2024-01-13T00:01:00-05:00', 'Anna', '[attachment: 00000012-PHOTO-2024-01-13-00-01-00.jpg]'],
        ['2024-01-13T12:30:00-05:00', 'Anna', '[attachment: omitted media]'],
      ],
    );
    assert.equal(
      (records[0]!.body.content as { thread: string }).thread,
      'WhatsApp: Book club',
      'chat named after its folder',
    );
    assert.deepEqual(
      skips.map((s) => s.reason),
      ['system message', 'system message'],
    );
  } finally {
    t.remove();
  }
});

test('an iOS export ending in an attachment and a line break keeps that last message', async () => {
  const t = writeTree({
    'Book club/_chat.txt': `${ios}\n[1/13/24, 12:31:00\u202fPM] Anna: \u200edocument omitted\n`,
  });
  try {
    const { records, skips } = await collect(
      parseWhatsapp(join(t.root, 'Book club/_chat.txt'), { timeZone: 'America/New_York' }),
    );
    assert.deepEqual(
      records.slice(-2).map((r) => [r.body.occurred_at, (r.body.content as { text: string }).text]),
      [
        ['2024-01-13T12:30:00-05:00', '[attachment: omitted media]'],
        ['2024-01-13T12:31:00-05:00', '[attachment: omitted media]'],
      ],
    );
    assert.deepEqual(
      skips.map((s) => s.reason),
      ['system message', 'system message'],
    );
  } finally {
    t.remove();
  }
});

test('a second download saved as "… (1)" is the same chat: same thread, same message identities', async () => {
  const t = writeTree({
    'WhatsApp Chat with Anna.txt': android,
    'WhatsApp Chat with Anna (1).txt': android,
    'Book club (2)/_chat.txt': android,
  });
  try {
    const ids = async (path: string) =>
      (await collect(parseWhatsapp(join(t.root, path), { timeZone: 'Europe/Berlin' }))).records.map((r) => [
        (r.body.content as { thread: string }).thread,
        r.body.source?.external_id,
      ]);
    const first = await ids('WhatsApp Chat with Anna.txt');
    assert.deepEqual(await ids('WhatsApp Chat with Anna (1).txt'), first);
    assert.equal((await ids('Book club (2)/_chat.txt'))[0]![0], 'WhatsApp: Book club');
  } finally {
    t.remove();
  }
});

test('a French export, its "à" between date and time, and the chat\'s name without the export\'s words', async () => {
  const french = [
    '12/03/2024 à 21:15 - Claire Dubois: On se voit jeudi ?',
    '13/03/2024 à 08:02 - Ana: Oui, à 19h.',
  ].join('\n');
  const t = writeTree({
    'Discussion WhatsApp avec Claire Dubois.txt': french,
    'WhatsApp-Chat mit Klaus Weber.txt': '12.03.24, 21:15 - Klaus Weber: Hallo!',
  });
  try {
    const { records } = await collect(
      parseWhatsapp(join(t.root, 'Discussion WhatsApp avec Claire Dubois.txt'), { timeZone: 'Europe/Paris' }),
    );
    assert.deepEqual(
      records.map((r) => [r.body.occurred_at, (r.body.content as { text: string }).text]),
      [
        ['2024-03-12T21:15:00+01:00', 'On se voit jeudi ?'],
        ['2024-03-13T08:02:00+01:00', 'Oui, à 19h.'],
      ],
    );
    assert.equal((records[0]!.body.content as { thread: string }).thread, 'WhatsApp: Claire Dubois');
    const german = await collect(
      parseWhatsapp(join(t.root, 'WhatsApp-Chat mit Klaus Weber.txt'), { timeZone: 'Europe/Berlin' }),
    );
    assert.equal((german.records[0]!.body.content as { thread: string }).thread, 'WhatsApp: Klaus Weber');
  } finally {
    t.remove();
  }
});

test('not a chat export: one skip with a reason', async () => {
  const t = writeTree({ 'notes.txt': 'just some text\nno headers\n' });
  try {
    const { records, skips } = await collect(parseWhatsapp(join(t.root, 'notes.txt'), {}));
    assert.equal(records.length, 0);
    assert.match(skips[0]!.reason, /no WhatsApp message lines/);
  } finally {
    t.remove();
  }
});

test('a chat whose dates read both ways says so on its first message; one that tells, or an order asked for, does not', async () => {
  const short = [
    '03/04/2024, 09:00 - Anna: Lunch on Friday?',
    '03/04/2024, 09:05 - Sam: Yes',
    '05/04/2024, 13:00 - Anna: Here',
  ].join('\n');
  const t = writeTree({ 'short.txt': short, 'long.txt': `${short}\n25/04/2024, 10:00 - Sam: Again?` });
  try {
    const read = async (file: string, dateOrder?: 'dmy' | 'mdy') =>
      (
        await collect(
          parseWhatsapp(join(t.root, file), { timeZone: 'UTC', ...(dateOrder ? { dateOrder } : {}) }),
        )
      ).records;
    const ambiguous = await read('short.txt');
    assert.equal(ambiguous[0]!.body.occurred_at, '2024-04-03T09:00:00.000Z', 'day first');
    assert.match(
      ambiguous[0]!.note ?? '',
      /^its dates read both ways \(3\/4 could be 3 April or 4 March\): read day first; /,
    );
    assert.match(
      ambiguous[0]!.note ?? '',
      /--date-order mdy \(in the app: "Dates in WhatsApp chats", Month first\)$/,
    );
    assert.deepEqual(
      ambiguous.slice(1).map((r) => r.note),
      [undefined, undefined],
      'said once, not on every message',
    );
    const monthFirst = await read('short.txt', 'mdy');
    assert.equal(monthFirst[0]!.body.occurred_at, '2024-03-04T09:00:00.000Z');
    assert.deepEqual(
      monthFirst.map((r) => r.note),
      [undefined, undefined, undefined],
    );
    const told = await read('long.txt');
    assert.deepEqual(
      told.map((r) => r.note),
      [undefined, undefined, undefined, undefined],
    );
  } finally {
    t.remove();
  }
});

test('notices quoting a ": ", shared locations, and markers in German and Spanish', async () => {
  const chat = [
    '12/31/23, 9:00 PM - Anna created group "Trip: Rome 2024"',
    '12/31/23, 9:01 PM - Anna changed the subject from "Trip" to „Trip: Rom“',
    '12/31/23, 9:02 PM - Robert "Bob" Smith: I am in',
    '12/31/23, 9:02 PM - Dwayne "The Rock: Count me in',
    '12/31/23, 9:02 PM - Dwayne "The Rock: He said "yes"',
    '12/31/23, 9:02 PM - Dwayne "The Rock: and then "no',
    '12/31/23, 9:03 PM - Anna: Diese Nachricht wurde gelöscht.',
    '12/31/23, 9:04 PM - Anna: Se eliminó este mensaje.',
    '12/31/23, 9:05 PM - Anna: <Medien ausgeschlossen>',
    '12/31/23, 9:06 PM - Anna: Nos vemos ahí <Se editó este mensaje.>',
  ].join('\n');
  const ios = [
    '[1/5/24, 9:04:05\u202fPM] Book club: \u200eAnna added Ben',
    '[1/5/24, 9:05:10\u202fPM] Anna: \u200eLocation: https://maps.google.com/?q=38.7,-9.1',
  ].join('\n');
  const t = writeTree({ 'Trip/chat.txt': chat, 'Book club/_chat.txt': ios });
  try {
    const android = await collect(parseWhatsapp(join(t.root, 'Trip/chat.txt'), { timeZone: 'UTC' }));
    assert.deepEqual(
      android.records.map((r) => {
        const c = r.body.content as { speaker: string; text: string };
        return [c.speaker, c.text];
      }),
      [
        ['Robert "Bob" Smith', 'I am in'],
        ['Dwayne "The Rock', 'Count me in'],
        ['Dwayne "The Rock', 'He said "yes"'],
        ['Dwayne "The Rock', 'and then "no'],
        ['Anna', '[attachment: omitted media]'],
        ['Anna', 'Nos vemos ahí'],
      ],
    );
    assert.deepEqual(
      android.skips.map((s) => s.reason),
      ['system message (no sender)', 'system message (no sender)', 'deleted message', 'deleted message'],
    );
    const group = await collect(parseWhatsapp(join(t.root, 'Book club/_chat.txt'), { timeZone: 'UTC' }));
    assert.deepEqual(
      group.records.map((r) => (r.body.content as { text: string }).text),
      ['Location: https://maps.google.com/?q=38.7,-9.1'],
    );
    assert.deepEqual(
      group.skips.map((s) => s.reason),
      ['system message'],
    );
  } finally {
    t.remove();
  }
});

test('Android: a file exported with the chat is an attachment; a view-once photo and one not yet received are no message', async () => {
  const chat = [
    '04/03/2024, 10:00 - Rui Pereira: IMG-20240304-WA0001.jpg (file attached)',
    'The view from the flat',
    '04/03/2024, 10:01 - Rui Pereira: null',
    '04/03/2024, 10:02 - Anna: Waiting for this message. This may take a while.',
    '04/03/2024, 10:03 - Anna: PTT-20240304-WA0002.opus (file attached)',
    '04/03/2024, 10:04 - Anna: The file is called notes (file attached) in the chat',
    '04/03/2024, 10:05 - Anna: Null',
  ].join('\n');
  const t = writeTree({ 'WhatsApp Chat with Rui.txt': chat });
  try {
    const { records, skips } = await collect(
      parseWhatsapp(join(t.root, 'WhatsApp Chat with Rui.txt'), { timeZone: 'UTC' }),
    );
    assert.deepEqual(
      records.map((r) => (r.body.content as { text: string }).text),
      [
        '[attachment: IMG-20240304-WA0001.jpg]\nThe view from the flat',
        '[attachment: PTT-20240304-WA0002.opus]',
        'The file is called notes (file attached) in the chat',
        'Null',
      ],
    );
    assert.deepEqual(
      skips.map((s) => `${s.ref}: ${s.reason}`),
      [
        'line 3: no message: a view-once photo, or one not yet received',
        'line 4: no message: a view-once photo, or one not yet received',
      ],
    );
  } finally {
    t.remove();
  }
});

test('iOS: the notices of a group whose name holds ": " are notices', async () => {
  const chat = [
    '[04/03/2024, 10:00:00] Porto trip: April: \u200eMessages and calls are end-to-end encrypted.',
    '[04/03/2024, 10:00:01] Porto trip: April: \u200eAnna added Rui',
    '[04/03/2024, 10:05:00] Anna: Booked the flat',
    '[04/03/2024, 10:06:00] Rui: \u200e<attached: 00000003-PHOTO-2024-03-04.jpg>',
    // A mark after a colon inside a message (right-to-left chats write it around numbers) is no notice.
    '[04/03/2024, 10:07:00] Dana: Flight number: \u200eLY 315',
  ].join('\r\n');
  const t = writeTree({ 'Porto trip: April/_chat.txt': `${chat}\r\n` });
  try {
    const { records, skips } = await collect(
      parseWhatsapp(join(t.root, 'Porto trip: April', '_chat.txt'), { timeZone: 'UTC' }),
    );
    assert.deepEqual(
      records.map((r) => (r.body.content as { text: string }).text),
      ['Booked the flat', '[attachment: 00000003-PHOTO-2024-03-04.jpg]', 'Flight number: LY 315'],
    );
    assert.deepEqual(
      skips.map((s) => s.reason),
      ['system message', 'system message'],
    );
  } finally {
    t.remove();
  }
});

/** The chat at PATH read in chunks of SIZE bytes: its items, and the progress heard before each. */
async function readInChunks(path: string, size: number, o: ParseOptions) {
  const bytes = readFileSync(path);
  const source: ByteSource = async function* () {
    for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
  };
  const heard: number[] = [];
  const items: ImportItem[] = [];
  for await (const item of chatItems(await readChat(path, undefined, source), path, {
    ...o,
    onRead: (f) => heard.push(f),
  }))
    items.push(item);
  return { items, heard };
}

// Every message of it depends on more than its own lines: the first message (a group's name holding
// ": "), a later one (the date order, told only by the last), the people (the name of a lone upload),
// the count of a prefix (a quoted ": "), the messages before it (ordinals). CRLF and a BOM, with
// characters of two to four bytes (and LRMs) that chunks cut.
const tricky = [
  '\ufeffExported by WhatsApp',
  '[03/04/24, 09:00:00] Porto trip: April: \u200eMessages and calls are end-to-end encrypted.',
  '[03/04/24, 09:00:05] Porto trip: April: \u200eZoë added Jürgen',
  '[03/04/24, 09:01:00] Zoë Ørsted: Olá 🙂 “Trip: Rome',
  'second line” and a third',
  '',
  '[03/04/24, 09:01:00] Zoë Ørsted: Olá 🙂 “Trip: Rome',
  '[03/04/24, 09:01:30] \u200eJürgen: \u200e<attached: 00000012-PHOTO.jpg>',
  '[03/04/24, 09:02:00] Jürgen created group “Trip: Rome”',
  '[03/04/24, 09:03:00] Jürgen: 日本語のテキスト\u200e',
  '[13/04/24, 21:04:05] Zoë Ørsted: the date order is told here',
  '',
].join('\r\n');

test('a chat read in chunks cut anywhere gives the items and progress of the file read in one', async () => {
  const t = writeTree({ 'Porto trip: April/_chat.txt': tricky });
  const path = join(t.root, 'Porto trip: April/_chat.txt');
  try {
    for (const o of [
      { timeZone: 'Europe/Lisbon', selfName: 'Jürgen' },
      // A lone upload is named after its people, found over the whole chat.
      { timeZone: 'UTC', uploadRoot: join(t.root, 'Porto trip: April') },
    ]) {
      const whole = await readInChunks(path, Buffer.byteLength(tricky) + 1, o);
      const chat = o.uploadRoot ? 'Porto trip, Zoë Ørsted, Jürgen' : 'Porto trip: April';
      // Lisbon is an hour ahead of UTC in April.
      const at = (day: number, h: number, ms: string) =>
        `2024-04-${String(day).padStart(2, '0')}T${String(o.uploadRoot ? h : h - 1).padStart(2, '0')}:${ms}.000Z`;
      assert.deepEqual(
        whole.items.map((i) => (i.type === 'record' ? i.body.source.external_id : `${i.ref}: ${i.reason}`)),
        [
          'line 1: text before the first message',
          'line 2: system message',
          'line 3: system message',
          `whatsapp:${chat}:${at(3, 9, '01:00')}:Zoë Ørsted:1`,
          `whatsapp:${chat}:${at(3, 9, '01:00')}:Zoë Ørsted:2`,
          `whatsapp:${chat}:${at(3, 9, '01:30')}:Jürgen:1`,
          'line 9: system message (no sender)',
          `whatsapp:${chat}:${at(3, 9, '03:00')}:Jürgen:1`,
          `whatsapp:${chat}:${at(13, 21, '04:05')}:Zoë Ørsted:1`,
        ],
      );
      assert.deepEqual(
        whole.heard,
        [0, 1, 2, 3, 4, 5, 6, 7].map((i) => i / 8),
      );
      for (const size of [1, 2, 3, 5, 7, 64])
        assert.deepEqual(await readInChunks(path, size, o), whole, `chunks of ${size}`);
    }
  } finally {
    t.remove();
  }
});

test('an import stopped after its first message stops reading the file there', async () => {
  const t = writeTree({ 'Porto trip: April/_chat.txt': tricky });
  const path = join(t.root, 'Porto trip: April/_chat.txt');
  try {
    const bytes = readFileSync(path);
    const reads = { started: 0, ended: 0, chunks: 0 };
    const source: ByteSource = async function* () {
      reads.started += 1;
      try {
        for (let at = 0; at < bytes.length; at += 16) {
          reads.chunks += 1;
          yield bytes.subarray(at, at + 16);
        }
      } finally {
        reads.ended += 1;
      }
    };
    const chat = await readChat(path, undefined, source);
    const whole = reads.chunks;
    for await (const item of chatItems(chat, path, { timeZone: 'UTC' })) if (item.type === 'record') break;
    assert.deepEqual(reads.started, reads.ended, 'every read of the file was closed');
    assert.ok(reads.chunks - whole < whole / 2, `read ${reads.chunks - whole} of ${whole} chunks`);
  } finally {
    t.remove();
  }
});
