import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { importItemKey } from '../idempotency-key.ts';
import { test } from 'node:test';
import { collect, writeTree } from '../test-support.ts';
import { parseVcf } from './vcf.ts';

const cards = [
  // vCard 3.0 from macOS Contacts: two work emails, a folded note, UTF-8, a photo to drop.
  'BEGIN:VCARD',
  'VERSION:3.0',
  'PRODID:-//Apple Inc.//macOS 14.4//EN',
  'N:Müller;Zoë;;;',
  'FN:Zoë Müller',
  'ORG:Acme GmbH;R&D',
  'TITLE:Head of Research',
  'EMAIL;type=INTERNET;type=WORK;type=pref:zoe@acme.example',
  'EMAIL;type=INTERNET;type=WORK:z.mueller@acme.example',
  'EMAIL;type=INTERNET;type=HOME:zoe@home.example',
  'TEL;type=CELL;type=VOICE;type=pref:+49 170 1234567',
  'ADR;type=HOME:;;Hauptstr. 5;Berlin;;10115;Germany',
  'BDAY:1990-04-12',
  'NOTE:Met at the Lisbon confer',
  ' ence in 2019. Vegetarian.',
  'PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQAAAQABAAD',
  ' /2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL',
  'UID:5C1F0F37-1111-4C3B-9C4E-ABCDEF012345',
  'REV:2024-02-10T08:00:00Z',
  'END:VCARD',
  // vCard 2.1 from an old Android phone: bare types, quoted-printable with a soft line break.
  'BEGIN:VCARD',
  'VERSION:2.1',
  'N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:M=C3=BCller;J=C3=BCrgen;;;',
  'FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:J=C3=BCrgen M=C3=BCller',
  'TEL;CELL:+49 151 7654321',
  'TEL;HOME;VOICE:+49 30 123456',
  'NOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=ISO-8859-1:Kocht gern; mag K=E4se=',
  '=0D=0Aund Wein =93Bordeaux=94 f=FCr 20 =80.',
  'END:VCARD',
  // No name at all.
  'BEGIN:VCARD',
  'VERSION:3.0',
  'TEL:+1 555 0100',
  'END:VCARD',
  // Broken line: skipped alone.
  'BEGIN:VCARD',
  'VERSION:3.0',
  'FN:Broken',
  'EMAIL;;;=:x',
  'END:VCARD',
  // A name and nothing else.
  'BEGIN:VCARD',
  'VERSION:4.0',
  'FN:Just A Name',
  'END:VCARD',
  // vCard 4: numbers and addresses as URIs.
  'BEGIN:VCARD',
  'VERSION:4.0',
  'FN:Rui Costa',
  'TEL;VALUE=uri;TYPE=cell:tel:+351-912-345-678',
  'EMAIL:mailto:rui@example.pt',
  'END:VCARD',
].join('\r\n');

test('vCard 3.0 and 2.1: one fact per field, typed slots, encodings, broken cards skipped alone', async () => {
  const t = writeTree({ 'contacts.vcf': cards });
  try {
    // A card without REV is as of its file (an address book exported long ago is as of then).
    utimesSync(
      join(t.root, 'contacts.vcf'),
      new Date('2023-05-01T12:00:00Z'),
      new Date('2023-05-01T12:00:00Z'),
    );
    const { records, skips } = await collect(parseVcf(join(t.root, 'contacts.vcf'), {}));
    const facts = records.map((r) => r.body.content as { subject: string; predicate: string; value: string });
    assert.deepEqual(
      facts.filter((f) => f.subject === 'Rui Costa').map((f) => [f.predicate, f.value]),
      [
        ['phone (mobile)', '+351-912-345-678'],
        ['email', 'rui@example.pt'],
      ],
      'the value people read, not the URI',
    );
    const zoe = Object.fromEntries(
      facts.filter((f) => f.subject === 'Zoë Müller').map((f) => [f.predicate, f.value]),
    );
    assert.deepEqual(zoe, {
      organization: 'Acme GmbH, R&D',
      'job title': 'Head of Research',
      'email (work)': 'zoe@acme.example',
      'email (work) 2': 'z.mueller@acme.example',
      'email (home)': 'zoe@home.example',
      'phone (mobile)': '+49 170 1234567',
      'address (home)': 'Hauptstr. 5, Berlin, 10115, Germany',
      birthday: '1990-04-12',
      note: 'Met at the Lisbon conference in 2019. Vegetarian.',
    });
    const zoeRecord = records.find((r) => r.ref === 'Zoë Müller: birthday')!.body;
    assert.equal(zoeRecord.source.name, 'vcf');
    assert.equal(zoeRecord.source.external_id, 'vcf:5C1F0F37-1111-4C3B-9C4E-ABCDEF012345:birthday');
    assert.equal(zoeRecord.occurred_at, '2024-02-10T08:00:00.000Z', "REV is the card's own time");

    const jurgen = Object.fromEntries(
      facts.filter((f) => f.subject === 'Jürgen Müller').map((f) => [f.predicate, f.value]),
    );
    assert.deepEqual(jurgen, {
      'phone (mobile)': '+49 151 7654321',
      'phone (home)': '+49 30 123456',
      note: 'Kocht gern; mag Käse\nund Wein “Bordeaux” für 20 €.',
    });
    const jr = records.find((r) => r.ref === 'Jürgen Müller: note')!.body;
    assert.equal(jr.occurred_at, '2023-05-01T12:00:00.000Z', "no REV: the file's time");
    // The file's time is no part of what the card says: a copy with a newer time is the same item.
    const copied = await collect(
      parseVcf(join(t.root, 'contacts.vcf'), { fileTime: async () => new Date('2025-01-01T00:00:00Z') }),
    );
    assert.deepEqual(copied.records.map(importItemKey), records.map(importItemKey));
    assert.equal(records.find((r) => r.ref === 'Zoë Müller: birthday')!.occurredAtInKey, undefined, 'REV is');
    // A file whose time is not known (an upload without last_modified): the write's.
    const unknown = await collect(parseVcf(join(t.root, 'contacts.vcf'), { fileTime: async () => null }));
    assert.equal(unknown.records.find((r) => r.ref === 'Jürgen Müller: note')!.body.occurred_at, undefined);
    assert.deepEqual(
      skips.map((s) => s.reason.replace(/:.*/, '')),
      [
        'card has no name (FN, N or ORG)',
        'unreadable card',
        'card "Just A Name" has no fields to record beyond its name',
      ],
    );
  } finally {
    t.remove();
  }
});

test('a date value that cannot be read loses only that field, named by card', async () => {
  const t = writeTree({
    'odd.vcf': [
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:Odd Birthday',
      'BDAY:12.04.1985',
      'EMAIL:odd@example.com',
      'END:VCARD',
      'BEGIN:VCARD',
      'VERSION:4.0',
      'FN:Odd Rev',
      'REV:20240101T10',
      'EMAIL:rev@example.com',
      'END:VCARD',
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:Good Person',
      'BDAY:1990-04-12',
      'REV:2024-02-10T08:00:00Z',
      'END:VCARD',
    ].join('\r\n'),
  });
  try {
    const { records, skips } = await collect(
      parseVcf(join(t.root, 'odd.vcf'), { fileTime: async () => null }),
    );
    assert.deepEqual(
      records.map((r) => [r.ref, (r.body.content as { value: string }).value, r.body.occurred_at]),
      [
        ['Odd Birthday: email', 'odd@example.com', undefined],
        ['Odd Rev: email', 'rev@example.com', undefined], // an unreadable REV: the file's time (unknown here)
        ['Good Person: birthday', '1990-04-12', '2024-02-10T08:00:00.000Z'],
      ],
    );
    assert.deepEqual(
      skips.map((s) => [s.ref, s.reason]),
      [
        [
          'Odd Birthday: birthday',
          'card "Odd Birthday" at line 1: its BDAY cannot be read and is left out: not a valid date or time',
        ],
      ],
    );
  } finally {
    t.remove();
  }
});

test('Apple birthdays without a year, two cards of one name, and a fold inside a UTF-8 character', async () => {
  const t = writeTree({
    'contacts.vcf': Buffer.from(
      [
        'BEGIN:VCARD',
        'VERSION:3.0',
        'FN:Ana Silva',
        'BDAY;X-APPLE-OMIT-YEAR=1604:1604-12-24',
        'TEL;TYPE=CELL:+351 912 000 001',
        'END:VCARD',
        'BEGIN:VCARD',
        'VERSION:3.0',
        'FN:Ana Silva',
        'TEL;TYPE=CELL:+351 912 000 002',
        'END:VCARD',
        // An exact copy of the card above: nothing more.
        'BEGIN:VCARD',
        'VERSION:3.0',
        'FN:Ana Silva',
        'TEL;TYPE=CELL:+351 912 000 002',
        'END:VCARD',
        'BEGIN:VCARD',
        'VERSION:3.0',
        'FN:Zo\xc3\xab M\xc3\xbcller',
        // Folded between the two bytes of "ü", as a writer folding by bytes does.
        'NOTE:Geburtstag M\xc3',
        ' \xbcller',
        'BDAY:1990-02-03',
        'END:VCARD',
      ].join('\r\n'),
      'latin1',
    ),
  });
  try {
    const { records } = await collect(parseVcf(join(t.root, 'contacts.vcf'), { fileTime: async () => null }));
    assert.deepEqual(
      records.map((r) => [r.body.source.external_id, (r.body.content as { value: string }).value]),
      [
        ['vcf:Ana Silva:birthday', '--12-24'],
        ['vcf:Ana Silva:phone (mobile)', '+351 912 000 001'],
        ['vcf:Ana Silva #2:phone (mobile)', '+351 912 000 002'],
        ['vcf:Zoë Müller:note', 'Geburtstag Müller'],
        ['vcf:Zoë Müller:birthday', '1990-02-03'],
      ],
    );
  } finally {
    t.remove();
  }
});

test('an exact copy of a card is reported as skipped, naming the card it repeats', async () => {
  const card = ['BEGIN:VCARD', 'VERSION:3.0', 'FN:Ana Silva', 'TEL;TYPE=CELL:+351 912 000 002', 'END:VCARD'];
  const t = writeTree({ 'contacts.vcf': [...card, ...card, ''].join('\r\n') });
  try {
    const { records, skips } = await collect(
      parseVcf(join(t.root, 'contacts.vcf'), { fileTime: async () => null }),
    );
    assert.deepEqual(
      records.map((r) => r.body.source.external_id),
      ['vcf:Ana Silva:phone (mobile)'],
    );
    assert.deepEqual(
      skips.map((s) => [s.ref, s.reason]),
      [['card at line 6', 'an exact copy of the card at line 1']],
    );
  } finally {
    t.remove();
  }
});

test('photos are not read, yet a card is an exact copy of another only with the same photo; lines keep their numbers', async () => {
  // vCard 2.1 writes a photo's base64 on unindented lines up to a blank one; 3.0 folds it.
  const card = (photo: string[]) => [
    'BEGIN:VCARD',
    'VERSION:2.1',
    'FN:Ana Silva',
    'TEL;CELL:+351 912 000 002',
    `PHOTO;ENCODING=BASE64;TYPE=JPEG:${photo[0]}`,
    ...photo.slice(1),
    '',
    'END:VCARD',
  ];
  const zoe = [
    'BEGIN:VCARD',
    'VERSION:3.0',
    'FN:Zoë',
    'UID:z1',
    'PHOTO;ENCODING=b:QUFB',
    ' QkJC',
    'EMAIL:z@x.org',
  ];
  const t = writeTree({
    'contacts.vcf': [
      ...card(['AAAA', 'BBBB']),
      ...card(['AAAA', 'BBBB']),
      ...card(['AAAA', 'CCCC']),
      ...zoe,
      ...zoe,
      'END:VCARD',
      '',
    ].join('\r\n'),
  });
  try {
    let text = '';
    const { records, skips } = await collect(
      parseVcf(join(t.root, 'contacts.vcf'), { fileTime: async () => null, onText: (x) => (text = x) }),
    );
    assert.deepEqual(
      records.map((r) => r.body.source.external_id),
      ['vcf:Ana Silva:phone (mobile)', 'vcf:Ana Silva #2:phone (mobile)', 'vcf:z1:email'],
    );
    assert.deepEqual(
      skips.map((s) => [s.ref, s.reason]),
      [
        ['card at line 9', 'an exact copy of the card at line 1'],
        [
          'card at line 25',
          'card "Zoë" at line 25 is cut off: no END:VCARD before the next card begins at line 32',
        ],
      ],
    );
    assert.doesNotMatch(text, /QUFB|QkJC|AAAA|BBBB/, 'the text handed on holds no photo');
    assert.match(text, /UID:z1\r\nEMAIL:z@x.org/);
  } finally {
    t.remove();
  }
});

test('a quoted-printable value without a CHARSET that is not UTF-8 reads as Windows-1252, not as U+FFFD', async () => {
  const t = writeTree({
    'old-phone.vcf': [
      'BEGIN:VCARD',
      'VERSION:2.1',
      'N:Meier;Jens',
      'FN:Jens Meier',
      'ADR;HOME;ENCODING=QUOTED-PRINTABLE:;;Hauptstra=DFe 5;K=F6ln;;50667;Germany',
      'NOTE;ENCODING=QUOTED-PRINTABLE:Gr=C3=BC=C3=9Fe aus M=C3=BCnchen',
      'END:VCARD',
      '',
    ].join('\r\n'),
  });
  try {
    const { records } = await collect(
      parseVcf(join(t.root, 'old-phone.vcf'), { fileTime: async () => null }),
    );
    assert.deepEqual(
      records.map((r) => (r.body.content as { value: string }).value),
      ['Hauptstraße 5, Köln, 50667, Germany', 'Grüße aus München'],
    );
  } finally {
    t.remove();
  }
});

test('an escaped semicolon in a vCard 3.0 text reads as a semicolon', async () => {
  const t = writeTree({
    'contacts.vcf': [
      'BEGIN:VCARD',
      'VERSION:3.0',
      'N:Costa;Rui;;;',
      'FN:Rui Costa',
      'NOTE:Loves chocolate\\; hates cilantro\\, and olives.',
      'END:VCARD',
      '',
    ].join('\r\n'),
  });
  try {
    const { records } = await collect(parseVcf(join(t.root, 'contacts.vcf'), { fileTime: async () => null }));
    assert.deepEqual(
      records.map((r) => (r.body.content as { value: string }).value),
      ['Loves chocolate; hates cilantro, and olives.'],
    );
  } finally {
    t.remove();
  }
});

test('cards joined with a byte order mark each are all read, without the mark in any field', async () => {
  // Contacts exported one file per card, then joined: each file's BOM opens its card's BEGIN line.
  const card = (name: string, phone: string) =>
    ['\ufeffBEGIN:VCARD', 'VERSION:3.0', `FN:${name}`, `TEL;TYPE=CELL:${phone}`, 'END:VCARD', ''].join(
      '\r\n',
    );
  const t = writeTree({
    'joined.vcf': card('Ana Silva', '+351 912 000 001') + card('Bo Chen', '+351 912 000 002'),
    'qp.vcf': [
      'BEGIN:VCARD',
      'VERSION:2.1',
      'FN;ENCODING=QUOTED-PRINTABLE:=EF=BB=BFCarla Reis',
      'TEL;CELL:+351 912 000 003',
      'END:VCARD',
      '',
    ].join('\r\n'),
  });
  try {
    const read = async (f: string) =>
      (await collect(parseVcf(join(t.root, f), { fileTime: async () => null }))).records.map((r) => [
        r.body.source.external_id,
        (r.body.content as { subject: string }).subject,
      ]);
    assert.deepEqual(await read('joined.vcf'), [
      ['vcf:Ana Silva:phone (mobile)', 'Ana Silva'],
      ['vcf:Bo Chen:phone (mobile)', 'Bo Chen'],
    ]);
    assert.deepEqual(await read('qp.vcf'), [['vcf:Carla Reis:phone (mobile)', 'Carla Reis']]);
  } finally {
    t.remove();
  }
});

test('C1 controls in a vCard that is valid UTF-8 are read as the Windows-1252 they were', async () => {
  // Windows-1252 converted to UTF-8 as if it were Latin-1: curly quotes and the euro became C1 controls.
  const t = writeTree({
    'converted.vcf': Buffer.from(
      [
        'BEGIN:VCARD',
        'VERSION:3.0',
        'FN:Jens Meier',
        'NOTE:Mag \xc2\x93Bordeaux\xc2\x94 f\xc3\xbcr 20 \xc2\x80',
        'END:VCARD',
        'BEGIN:VCARD',
        'VERSION:2.1',
        'FN:Carla Reis',
        'NOTE;ENCODING=QUOTED-PRINTABLE:=C2=93Vinho verde=C2=94',
        'END:VCARD',
        '',
      ].join('\r\n'),
      'latin1',
    ),
  });
  try {
    const { records } = await collect(
      parseVcf(join(t.root, 'converted.vcf'), { fileTime: async () => null }),
    );
    assert.deepEqual(
      records.map((r) => (r.body.content as { value: string }).value),
      ['Mag “Bordeaux” für 20 €', '“Vinho verde”'],
    );
  } finally {
    t.remove();
  }
});

test('relations: Apple labels, vCard 4 RELATED by name or by a UID of the file, labelled dates', async () => {
  const t = writeTree({
    'contacts.vcf': [
      // macOS Contacts: the relation is the X-ABLabel of the property's group.
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:John Doe',
      'UID:john',
      'item1.X-ABRELATEDNAMES;type=pref:Jane Doe',
      'item1.X-ABLabel:_$!<Spouse>!$_',
      'item2.X-ABRELATEDNAMES:Max',
      'item2.X-ABLabel:_$!<Child>!$_',
      'item3.X-ABRELATEDNAMES:Lia',
      'item3.X-ABLabel:_$!<Child>!$_',
      'item4.X-ABRELATEDNAMES:Rosa',
      'item4.X-ABLabel:Godmother',
      'item5.X-ABDATE;X-APPLE-OMIT-YEAR=1604:1604-06-12',
      'item5.X-ABLabel:_$!<Anniversary>!$_',
      'item6.X-ABDATE:2019-03-01',
      'item6.X-ABLabel:Moved to Porto',
      'END:VCARD',
      // vCard 4: a relation by name, by a UID of a card further down, by a UID of no card here.
      'BEGIN:VCARD',
      'VERSION:4.0',
      'FN:Ana Silva',
      'UID:urn:uuid:1f0c',
      'RELATED;TYPE=friend;VALUE=text:Karl Weber',
      'RELATED;TYPE=co-worker:urn:uuid:9a7b',
      'RELATED;TYPE=sibling:urn:uuid:0000-missing',
      'END:VCARD',
      'BEGIN:VCARD',
      'VERSION:4.0',
      'FN:Bruno Costa',
      'UID:urn:uuid:9a7b',
      'EMAIL:bruno@example.com',
      'END:VCARD',
    ].join('\r\n'),
  });
  try {
    const { records, skips } = await collect(
      parseVcf(join(t.root, 'contacts.vcf'), { fileTime: async () => null }),
    );
    assert.deepEqual(
      records.map((r) => {
        const c = r.body.content as { subject: string; predicate: string; value: string };
        return [c.subject, c.predicate, c.value];
      }),
      [
        ['John Doe', 'spouse', 'Jane Doe'],
        ['John Doe', 'child', 'Max'],
        ['John Doe', 'child 2', 'Lia'],
        ['John Doe', 'godmother', 'Rosa'],
        ['John Doe', 'anniversary', '--06-12'],
        ['John Doe', 'date (moved to porto)', '2019-03-01'],
        ['Ana Silva', 'friend', 'Karl Weber'],
        ['Ana Silva', 'co-worker', 'Bruno Costa'],
        ['Bruno Costa', 'email', 'bruno@example.com'],
      ],
    );
    assert.deepEqual(
      skips.map((s) => [s.ref, s.reason]),
      [
        [
          'Ana Silva: sibling',
          'card "Ana Silva" at line 18: its sibling is the contact urn:uuid:0000-missing, which is not in this file',
        ],
      ],
    );
  } finally {
    t.remove();
  }
});

test('a card without END:VCARD is skipped and named, at the end of the file or before the next card', async () => {
  const t = writeTree({
    'cut.vcf': [
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:Sofia Reis',
      'EMAIL:sofia@example.org',
      'END:VCARD',
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:Tiago Neves',
      'TEL:+351 911 222 333',
    ].join('\r\n'),
    'joined.vcf': [
      'BEGIN:VCARD',
      'VERSION:3.0',
      'N:Neves;Tiago;;;',
      'TEL:+351 911 222 333',
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:Sofia Reis',
      'EMAIL:sofia@example.org',
      'END:VCARD',
      '',
    ].join('\r\n'),
  });
  try {
    const cut = await collect(parseVcf(join(t.root, 'cut.vcf'), {}));
    assert.deepEqual(
      cut.records.map((r) => r.ref),
      ['Sofia Reis: email'],
    );
    assert.deepEqual(
      cut.skips.map((s) => [s.ref, s.reason]),
      [['card at line 6', 'card "Tiago Neves" at line 6 is cut off: no END:VCARD (is the file truncated?)']],
    );
    const joined = await collect(parseVcf(join(t.root, 'joined.vcf'), {}));
    assert.deepEqual(
      joined.records.map((r) => r.ref),
      ['Sofia Reis: email'],
    );
    assert.deepEqual(
      joined.skips.map((s) => [s.ref, s.reason]),
      [
        [
          'card at line 1',
          'card "Tiago Neves" at line 1 is cut off: no END:VCARD before the next card begins at line 5',
        ],
      ],
    );
  } finally {
    t.remove();
  }
});

test('a date no calendar has (30 February, month 13) is skipped and named; 29 February without a year is kept', async () => {
  const t = writeTree({
    'dates.vcf': [
      'BEGIN:VCARD',
      'VERSION:4.0',
      'FN:Ana Lima',
      'BDAY:19700230',
      'ANNIVERSARY:20100431',
      'EMAIL:ana@example.org',
      'END:VCARD',
      'BEGIN:VCARD',
      'VERSION:4.0',
      'FN:Bruno Sá',
      'BDAY:--0230',
      'ANNIVERSARY:--1301',
      'END:VCARD',
      'BEGIN:VCARD',
      'VERSION:4.0',
      'FN:Carla Dias',
      'BDAY:--0229',
      'ANNIVERSARY:19700229',
      'END:VCARD',
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:Duarte Melo',
      'BDAY;X-APPLE-OMIT-YEAR=1900:1900-02-29',
      'item1.X-ABDATE:2010-02-30',
      'item1.X-ABLabel:_$!<Anniversary>!$_',
      'END:VCARD',
    ].join('\r\n'),
  });
  try {
    const { records, skips } = await collect(parseVcf(join(t.root, 'dates.vcf'), {}));
    assert.deepEqual(
      records.map((r) => [r.ref, (r.body.content as { value: string }).value]),
      [
        ['Ana Lima: email', 'ana@example.org'],
        ['Carla Dias: birthday', '--02-29'],
        // Apple's made-up year is no part of the date: the day is 29 February of any year.
        ['Duarte Melo: birthday', '--02-29'],
      ],
    );
    assert.deepEqual(
      skips.map((s) => [s.ref, s.reason]),
      [
        [
          'Ana Lima: birthday',
          'card "Ana Lima" at line 1: its BDAY cannot be read and is left out: not a valid date (February 1970 has no day 30)',
        ],
        [
          'Ana Lima: anniversary',
          'card "Ana Lima" at line 1: its ANNIVERSARY cannot be read and is left out: not a valid date (April 2010 has no day 31)',
        ],
        [
          'Bruno Sá: birthday',
          'card "Bruno Sá" at line 8: its BDAY cannot be read and is left out: not a valid date (February has no day 30 in any year)',
        ],
        [
          'Bruno Sá: anniversary',
          'card "Bruno Sá" at line 8: its ANNIVERSARY cannot be read and is left out: not a valid date (there is no month 13)',
        ],
        [
          'Carla Dias: anniversary',
          'card "Carla Dias" at line 14: its ANNIVERSARY cannot be read and is left out: not a valid date (February 1970 has no day 29)',
        ],
        [
          'Duarte Melo: anniversary',
          'card "Duarte Melo" at line 20: its X-ABDATE cannot be read and is left out: not a valid date (February 2010 has no day 30)',
        ],
      ],
    );
  } finally {
    t.remove();
  }
});
