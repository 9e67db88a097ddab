import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { collect, writeTree } from '../test-support.ts';
import { baseSubject } from '../../../engine/index.ts';
import { contentIds, parseMbox, separatorDate } from './mbox.ts';
import { createHash } from 'node:crypto';
import { isAsctimeSeparator, MboxSplitter, mboxMessages, type MboxMessage } from './mbox-split.ts';

/** Bytes as an 8-bit mail client wrote them. */
const latin1 = (s: string) => Buffer.from(s, 'latin1');

/** The messages of BUF fed to a splitter CHUNK bytes at a time. */
function split(buf: Buffer, chunk = buf.length, limit?: number): MboxMessage[] {
  const s = new MboxSplitter(limit);
  const out: MboxMessage[] = [];
  for (let i = 0; i < buf.length; i += Math.max(1, chunk)) out.push(...s.push(buf.subarray(i, i + chunk)));
  return [...out, ...s.end()];
}

const crlf = (s: string) => s.replace(/\n/g, '\r\n');
const pdf = Buffer.from('%PDF-1.4 fake').toString('base64');

// Three mails as Thunderbird/Gmail Takeout write them, plus one that is not a mail at all.
const mbox = [
  'From alice@example.org Mon Mar  4 09:00:00 2024',
  crlf(`From: Alice Martin <alice@example.org>
To: Sam Lee <sam@example.com>, team@example.com
Cc: =?UTF-8?B?SsO8cmdlbg==?= <juergen@example.de>
Subject: Offsite in Porto
Date: Mon, 4 Mar 2024 10:00:00 +0100
Message-ID: <root-1@example.org>
Content-Type: text/plain; charset=utf-8

Hi all,

>From the budget side we are fine.
From here on, plans are final.
`),
  'From sam@example.com Tue Mar  5 18:30:00 2024',
  crlf(`From: Sam Lee <sam@example.com>
To: Alice Martin <alice@example.org>
Subject: =?ISO-8859-1?Q?Re:_Offsite_in_Porto_=E0_confirmer?=
Date: Tue, 5 Mar 2024 19:30:00 +0200
Message-ID: <reply-2@example.com>
In-Reply-To: <root-1@example.org>
References: <root-1@example.org>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="b1"

--b1
Content-Type: text/plain; charset=iso-8859-1
Content-Transfer-Encoding: quoted-printable

Caf=E9 at 9, then the venue.=20
See the attached agenda.
--b1
Content-Type: application/pdf; name="agenda.pdf"
Content-Disposition: attachment; filename="agenda.pdf"
Content-Transfer-Encoding: base64

${pdf}
--b1--
`),
  'From MAILER-DAEMON Wed Mar  6 07:00:00 2024',
  crlf(`From: newsletter@shop.example
Subject: Weekly deals
Date: Wed, 6 Mar 2024 07:00:00 +0000
Content-Type: text/html; charset=utf-8

<html><body><p>Deals &amp; more</p><script>track()</script></body></html>
`),
  'From nobody Thu Mar  7 07:00:00 2024',
  '',
  '',
].join('\n');

test('split: separators only after a blank line, >From unquoted once', () => {
  const parts = split(Buffer.from(mbox, 'latin1'));
  assert.equal(parts.length, 4);
  const first = parts[0]!.raw!.toString('latin1');
  assert.match(first, /\nFrom the budget side/, '>From is unquoted');
  assert.match(
    first,
    /\nFrom here on, plans are final\./,
    'a body line starting with From is not a separator',
  );
});

test('split: an asctime separator with no blank line before it opens a mail; a time range in a body does not', () => {
  const joined = [
    'From 1790000000000000003@xxx Thu Mar 07 09:00:00 +0000 2024',
    'Subject: itinerary',
    '',
    'See the itinerary.',
    'From 1790000000000000004@xxx Fri Mar 08 10:00:00 +0000 2024',
    'X-Gmail-Labels: Spam',
    'Subject: win',
    '',
    'You won.',
    'From - Sat Mar  9 11:00:00 2024',
    'Subject: third',
    '',
    'Hi Maria,',
    '',
    'From 9:00 to 17:00 on Friday 12 April 2024',
    'the clinic is closed, so come on Saturday.',
    '',
    'Ana',
    '',
  ].join('\n');
  const parts = split(latin1(joined)).map((m) => m.raw!.toString('latin1'));
  assert.equal(parts.length, 3);
  assert.equal(parts[0], 'Subject: itinerary\n\nSee the itinerary.');
  assert.match(parts[1]!, /^X-Gmail-Labels: Spam\n/u);
  assert.match(parts[2]!, /From 9:00 to 17:00 on Friday 12 April 2024\nthe clinic is closed/u);
});

test('mbox: sender, recipients, subject, thread by References, charsets, attachments, time zones', async () => {
  const t = writeTree({ 'Inbox.mbox': Buffer.from(mbox, 'utf8') });
  try {
    const { records, skips } = await collect(
      parseMbox(join(t.root, 'Inbox.mbox'), { selfName: 'sam@example.com' }),
    );
    assert.equal(records.length, 3);
    const [root, reply, news] = records.map((r) => r.body);
    assert.ok(typeof root!.content === 'object' && root!.content.kind === 'message');
    assert.equal(root!.content.speaker, 'Alice Martin');
    assert.equal(root!.content.thread, 'Offsite in Porto <root-1@example.org>');
    assert.match(
      root!.content.text,
      /^Subject: Offsite in Porto\nFrom: Alice Martin <alice@example.org>\nTo: Sam Lee <sam@example.com>, team@example.com\nCc: Jürgen <juergen@example.de>\n\nHi all,/,
    );
    // As the sender's clock read it ("+0100"), the same instant as 09:00 UTC; keyed by that instant,
    // as a mail imported before the offset was kept was.
    assert.equal(root!.occurred_at, '2024-03-04T10:00:00+01:00');
    assert.equal(records[0]!.occurredAtInKey, '2024-03-04T09:00:00.000Z');
    assert.equal(root!.source.external_id, 'mbox:<root-1@example.org>');

    assert.ok(typeof reply!.content === 'object' && reply!.content.kind === 'message');
    assert.equal(reply!.content.speaker, 'self', '--self matches the sender address');
    assert.equal(
      reply!.content.thread,
      root!.content.thread,
      'a reply with an edited subject stays in its thread',
    );
    assert.match(reply!.content.text, /Subject: Re: Offsite in Porto à confirmer/);
    assert.match(reply!.content.text, /Café at 9, then the venue\./);
    assert.match(reply!.content.text, /\[attachment: agenda\.pdf \(application\/pdf\)\]$/);
    assert.equal(reply!.occurred_at, '2024-03-05T19:30:00+02:00');

    assert.ok(typeof news!.content === 'object' && news!.content.kind === 'message');
    assert.match(news!.content.text, /Deals & more/);
    assert.doesNotMatch(news!.content.text, /track\(\)/);
    assert.match(
      news!.source.external_id,
      /^mbox:sha256:[0-9a-f]{32}$/,
      'no Message-ID: a content hash identifies it',
    );

    assert.deepEqual(
      skips.map((s) => s.reason),
      ['message has no subject, body or attachment'],
    );
  } finally {
    t.remove();
  }
});

test('mbox: a last mail the file ends inside may be cut short; one missing its closing boundary is', async () => {
  // The first two mails whole; the first alone cut inside its text; the reply (multipart) cut inside its
  // text, and at a line end before its closing boundary.
  const whole = mbox.slice(0, mbox.indexOf('From MAILER-DAEMON'));
  const midLine = whole.slice(0, whole.indexOf('plans are final') + 'plans are'.length);
  const replyMidLine = whole.slice(0, whole.indexOf('then the venue.') + 'then the ve'.length);
  const atLineEnd = whole.slice(0, whole.indexOf('--b1--'));
  const t = writeTree({
    'whole.mbox': Buffer.from(whole, 'utf8'),
    'mid-line.mbox': Buffer.from(midLine, 'utf8'),
    'reply-mid-line.mbox': Buffer.from(replyMidLine, 'utf8'),
    'line-end.mbox': Buffer.from(atLineEnd, 'utf8'),
  });
  try {
    const read = async (name: string) => collect(parseMbox(join(t.root, name), {}));
    const ok = await read('whole.mbox');
    const [root, reply] = ok.records.map((r) => r.body.source.external_id);
    assert.deepEqual([ok.records.length, ok.skips.length], [2, 0]);
    assert.deepEqual(
      ok.records.map((r) => r.mayBeCut),
      [undefined, undefined],
    );
    const cut = await read('mid-line.mbox');
    assert.deepEqual(
      cut.records.map((r) => [r.body.source.external_id, r.mayBeCut]),
      [[root, true]],
    );
    assert.match(cut.records[0]!.note!, /it may be cut short: it replaces no copy imported before/u);
    for (const name of ['reply-mid-line.mbox', 'line-end.mbox']) {
      const unclosed = await read(name);
      assert.deepEqual(
        unclosed.records.map((r) => r.body.source.external_id),
        [root],
        name,
      );
      assert.match(unclosed.skips[0]!.reason, /^the file ends inside this message, which is cut short/u);
    }
    assert.notEqual(reply, undefined);
    assert.equal(split(Buffer.from(midLine, 'utf8')).at(-1)!.endsMidLine, true);
    assert.equal(split(Buffer.from(whole, 'utf8')).at(-1)!.endsMidLine, undefined);
  } finally {
    t.remove();
  }
});

test('baseSubject strips reply and forward prefixes', () => {
  assert.equal(baseSubject('Re: Fwd: RE[2]: Offsite'), 'Offsite');
  assert.equal(baseSubject('AW: Termin'), 'Termin');
});

test('mbox: raw 8-bit headers that are not UTF-8 read as Windows-1252, and so do Latin-1 bodies and Windows-1252 encoded-words; UTF-8 unchanged', async () => {
  const file = Buffer.concat([
    latin1('From old@example.org Mon Mar  4 09:00:00 2024\n'),
    // An old client: raw Latin-1 in the headers, an 8-bit Latin-1 body and attachment name.
    latin1('From: Andr\xe9 Dupont <old@example.org>\nSubject: caf\xe9 \x80 cr\xe8me\n'),
    latin1('Message-ID: <latin@example.org>\nMIME-Version: 1.0\n'),
    latin1('Content-Type: multipart/mixed; boundary="=_b"\n\n'),
    latin1('--=_b\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: 8bit\n\n'),
    // Quotes and the euro sign at 0x80-0x9F: what a body declared Latin-1 by Windows means.
    latin1('D\xe9j\xe0 vu \x93\x80\x94.\n'),
    latin1('--=_b\nContent-Type: application/pdf\nContent-Disposition: attachment; filename="re\xe7u.pdf"\n'),
    latin1('Content-Transfer-Encoding: base64\n\nJVBERi0=\n'),
    // A Windows-1252 encoded-word in an attachment's name.
    latin1(
      '--=_b\nContent-Type: application/pdf\nContent-Disposition: attachment; filename="=?windows-1252?Q?=93r=94.pdf?="\n',
    ),
    latin1('Content-Transfer-Encoding: base64\n\nJVBERi0=\n--=_b--\n\n'),
    latin1('From new@example.org Tue Mar  5 09:00:00 2024\n'),
    // A current one: raw UTF-8 in one header, an RFC 2047 encoded-word in another.
    Buffer.from(
      'From: Zoë <new@example.org>\nSubject: =?UTF-8?Q?na=C3=AFve?= über =?windows-1252?Q?=93ok=94?=\n',
      'utf8',
    ),
    Buffer.from(
      'Message-ID: <utf8@example.org>\nContent-Type: text/plain; charset=utf-8\n\nSchön.\n',
      'utf8',
    ),
  ]);
  const t = writeTree({ 'Old.mbox': file });
  try {
    const { records } = await collect(parseMbox(join(t.root, 'Old.mbox'), {}));
    const [old, current] = records.map((r) => r.body.content);
    assert.ok(typeof old === 'object' && old.kind === 'message');
    assert.equal(old.speaker, 'André Dupont');
    assert.match(old.text, /^Subject: café € crème\n/);
    assert.match(
      old.text,
      /\n\nDéjà vu “€”\.\n\n\[attachment: reçu\.pdf \(application\/pdf\)\]\n\n\[attachment: “r”\.pdf \(application\/pdf\)\]$/,
    );
    assert.equal(old.thread, 'café € crème <latin@example.org>');
    assert.ok(typeof current === 'object' && current.kind === 'message');
    assert.equal(current.speaker, 'Zoë');
    assert.match(current.text, /^Subject: naïve über “ok”\n[\s\S]*\n\nSchön\.$/);
  } finally {
    t.remove();
  }
});

test('mbox: 8-bit text that names no charset is read as Windows-1252 when it is not UTF-8', async () => {
  const file = Buffer.concat([
    latin1('From a@example.org Mon Mar  4 09:00:00 2024\n'),
    // No MIME headers at all, an 8-bit Latin-1 body.
    latin1('From: a@example.org\nMessage-ID: <plain@example.org>\nSubject: Gr\xfc\xdfe\n\n'),
    latin1('Gr\xfc\xdfe aus K\xf6ln\n\n'),
    latin1('From b@example.org Mon Mar  4 10:00:00 2024\n'),
    // A text part without a charset in a multipart, its Content-Type folded over two lines (CRLF).
    latin1('From: b@example.org\r\nMessage-ID: <part@example.org>\r\nMIME-Version: 1.0\r\n'),
    latin1('Content-Type: multipart/mixed; boundary="b1"\r\n\r\n--b1\r\nContent-Type: text/plain;\r\n'),
    latin1(' format=fixed\r\n\r\nD\xe9j\xe0 vu\r\n--b1--\r\n\r\n'),
    latin1('From c@example.org Mon Mar  4 11:00:00 2024\n'),
    // No charset, but the bytes are UTF-8: left as they are.
    Buffer.from(
      'From: c@example.org\nMessage-ID: <utf8@example.org>\nContent-Type: text/plain\n\nSchön\n',
      'utf8',
    ),
  ]);
  const t = writeTree({ 'Old.mbox': file });
  try {
    const { records } = await collect(parseMbox(join(t.root, 'Old.mbox'), {}));
    const texts = records.map((r) => (r.body.content as { text: string }).text);
    assert.match(texts[0]!, /\n\nGrüße aus Köln$/);
    assert.match(texts[1]!, /\n\nDéjà vu$/);
    assert.match(texts[2]!, /\n\nSchön$/);
    assert.ok(
      texts.every((x) => !x.includes('\ufffd')),
      texts.join(' | '),
    );
  } finally {
    t.remove();
  }
});

test('mbox: quoted-printable and base64 text without a charset is read as Windows-1252 when not UTF-8', async () => {
  const file = [
    'From a@example.org Mon Mar  4 09:00:00 2024',
    'From: a@example.org',
    'Message-ID: <qp@example.org>',
    'MIME-Version: 1.0',
    'Content-Type: text/plain',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    'Gr=FC=DFe aus K=F6ln, =80 5',
    '',
    'From b@example.org Mon Mar  4 10:00:00 2024',
    'From: b@example.org',
    'Message-ID: <b64@example.org>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    '--b1',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from('D\xe9j\xe0 vu', 'latin1').toString('base64'),
    '--b1--',
    '',
    'From c@example.org Mon Mar  4 11:00:00 2024',
    'From: c@example.org',
    'Message-ID: <qp-utf8@example.org>',
    'Content-Type: text/plain',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    'Sch=C3=B6n',
    '',
  ].join('\n');
  const t = writeTree({ 'Encoded.mbox': file });
  try {
    const { records } = await collect(parseMbox(join(t.root, 'Encoded.mbox'), {}));
    const texts = records.map((r) => (r.body.content as { text: string }).text);
    assert.match(texts[0]!, /\n\nGrüße aus Köln, € 5$/);
    assert.match(texts[1]!, /\n\nDéjà vu$/);
    assert.match(texts[2]!, /\n\nSchön$/);
  } finally {
    t.remove();
  }
});

test('mbox: format=flowed text is unflowed by quote depth, with DelSp, through quoted-printable and base64', async () => {
  const file = Buffer.concat([
    latin1('From a@example.org Mon Mar  4 09:00:00 2024\n'),
    // Thunderbird's plain-text reply: quotations two deep, a stuffed "From", the signature.
    latin1(
      crlf(`From: Ann <a@example.org>
Message-ID: <tb@example.org>
Subject: Re: plan
Content-Type: text/plain; charset=UTF-8; format=flowed
Content-Transfer-Encoding: 8bit

Sounds good, see you 
then.
 From my side nothing changes.

On 1/2/24 Bob wrote:
> We could meet on Tuesday at the 
> caf\xc3\xa9 near the station, if that 
> works.
>> earlier quoted 
>> text here.
> 
> Bob

-- 
Ann
`),
    ),
    latin1('\nFrom b@example.org Mon Mar  4 10:00:00 2024\n'),
    // Apple Mail: multipart/alternative, the plain part quoted-printable with DelSp=yes.
    latin1(
      crlf(`From: Bea <b@example.org>
Message-ID: <apple@example.org>
MIME-Version: 1.0
Content-Type: multipart/alternative; boundary="alt"

--alt
Content-Type: text/plain;
\tcharset=utf-8;
\tdelsp=yes;
\tformat=flowed
Content-Transfer-Encoding: quoted-printable

Lunch at the caf=C3=A9=20=20
on Friday? It is a long =
way =20
from the office.
> Sure, =20
> why not.
--alt
Content-Type: text/html; charset=utf-8

<p>Lunch at the caf&eacute; on Friday?</p>
--alt--
`),
    ),
    latin1('\nFrom c@example.org Mon Mar  4 11:00:00 2024\n'),
    // base64, no charset, Latin-1 bytes; and a flowed text attachment, which stays as it was sent.
    latin1(
      crlf(`From: Cem <c@example.org>
Message-ID: <b64@example.org>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="mix"

--mix
Content-Type: text/plain; format=flowed
Content-Transfer-Encoding: base64

${Buffer.from('Gr\xfc\xdfe aus \r\nK\xf6ln.\r\n', 'latin1').toString('base64')}
--mix
Content-Type: text/plain; charset=utf-8; format=flowed
Content-Disposition: attachment; filename="notes.txt"

kept 
as sent
--mix--
`),
    ),
    latin1('\nFrom d@example.org Mon Mar  4 12:00:00 2024\n'),
    // A stuffed line that would spell the boundary once unstuffed: the part is not rewritten, and
    // the mail still has its one text part.
    latin1(
      crlf(`From: Dan <d@example.org>
Message-ID: <stuffed@example.org>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="cut"

--cut
Content-Type: text/plain; charset=utf-8; format=flowed

before 
 --cut
after
--cut--
`),
    ),
  ]);
  const t = writeTree({ 'Flowed.mbox': file });
  try {
    const { records } = await collect(parseMbox(join(t.root, 'Flowed.mbox'), {}));
    const texts = records.map((r) => (r.body.content as { text: string }).text);
    assert.equal(
      texts[0]!.slice(texts[0]!.indexOf('\n\n') + 2),
      [
        'Sounds good, see you then.',
        'From my side nothing changes.',
        '',
        'On 1/2/24 Bob wrote:',
        '> We could meet on Tuesday at the café near the station, if that works.',
        '>> earlier quoted text here.',
        '> ',
        '> Bob',
        '',
        '-- ',
        'Ann',
      ].join('\n'),
    );
    assert.equal(
      texts[1]!.slice(texts[1]!.indexOf('\n\n') + 2),
      'Lunch at the café on Friday? It is a long way from the office.\n> Sure, why not.',
    );
    assert.match(texts[2]!, /\n\nGrüße aus Köln\.\n\n\[attachment: notes\.txt \(text\/plain\)\]$/);
    assert.match(texts[3]!, /\n\nbefore/);
    assert.match(texts[3]!, /after$/);
  } finally {
    t.remove();
  }
});

/**
 * The whole-file split. Its bytes name a mail without a Message-ID (content hash), so the streaming
 * split must give the very same bytes, however the file is cut, or a re-import would duplicate them.
 */
function wholeFileSplit(buf: Buffer): { line: number; raw: string }[] {
  const fromLine = /^From \S+ .*\b\d{1,2}:\d{2}(?::\d{2})?\b.*\b\d{4}\s*$/;
  const lines = buf.toString('latin1').split('\n');
  const out: { line: number; raw: string }[] = [];
  let current: string[] | null = null;
  let start = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!.replace(/\r$/, '');
    const prevBlank = i === 0 || lines[i - 1]!.replace(/\r$/, '') === '';
    if ((prevBlank && fromLine.test(l) && !/^From \d/.test(l)) || isAsctimeSeparator(l)) {
      if (current) out.push({ line: start + 1, raw: current.join('\n') });
      current = [];
      start = i;
      continue;
    }
    if (current) current.push(/^>+From /.test(lines[i]!) ? lines[i]!.slice(1) : lines[i]!);
  }
  if (current) out.push({ line: start + 1, raw: current.join('\n') });
  return out;
}

const crlfMbox = Buffer.from(
  crlf(
    [
      'From a@example.org Mon Jan  1 10:00:00 2024',
      'Subject: one',
      '',
      '>From the top.',
      '>>From a quoted quote.',
      'From here on, a body line.',
      '',
      'From b@example.org Tue Jan  2 10:00:00 2024',
      'Subject: two',
      '',
      'Last line without a newline',
    ].join('\n'),
  ),
  'latin1',
);

test('split: chunks cut anywhere (inside a CRLF, a separator, a >From) give the same messages', () => {
  const whole = split(crlfMbox);
  assert.deepEqual(
    whole.map((m) => [m.line, m.separator, m.raw!.toString('latin1')]),
    [
      [
        1,
        'From a@example.org Mon Jan  1 10:00:00 2024',
        'Subject: one\r\n\r\nFrom the top.\r\n>From a quoted quote.\r\nFrom here on, a body line.\r\n\r',
      ],
      [8, 'From b@example.org Tue Jan  2 10:00:00 2024', 'Subject: two\r\n\r\nLast line without a newline'],
    ],
  );
  for (const size of [1, 2, 3, 5, 7, 13, 64])
    assert.deepEqual(split(crlfMbox, size), whole, `chunks of ${size}`);
});

test('split: a UTF-8 byte order mark before the first separator hides no mail', () => {
  const whole = split(crlfMbox);
  const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), crlfMbox]);
  for (const size of [1, 2, 4, crlfMbox.length + 3])
    assert.deepEqual(split(withBom, size), whole, `chunks of ${size}`);
  // Anywhere else it is a mail's own bytes.
  const later = Buffer.concat([
    latin1('From a@example.org Mon Jan  1 10:00:00 2024\n'),
    Buffer.from([0xef, 0xbb, 0xbf]),
    latin1('Subject: x\n'),
  ]);
  assert.deepEqual(
    split(later)[0]!.raw,
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), latin1('Subject: x\n')]),
  );
});

test('split: the same bytes as the whole-file split, for any input and any chunking', () => {
  const line = fc.constantFrom(
    '',
    '\r',
    'From a@b Mon Jan  1 10:00:00 2024',
    'From a@b Mon Jan  1 10:00:00 2024\r',
    'From here on',
    '>From x',
    '>>From y\r',
    '>Fro',
    'Subject: s',
    'body text',
    'x'.repeat(300),
  );
  fc.assert(
    fc.property(fc.array(line, { maxLength: 40 }), fc.integer({ min: 1, max: 50 }), (lines, chunk) => {
      const buf = Buffer.from(lines.join('\n'), 'latin1');
      const got = split(buf, chunk).map((m) => ({ line: m.line, raw: m.raw!.toString('latin1') }));
      assert.deepEqual(got, wholeFileSplit(buf));
    }),
    { numRuns: 500 },
  );
});

test('mboxMessages hands each message on before the rest of the file is read', async () => {
  let read = 0;
  async function* chunks() {
    for (let i = 0; i < 1000; i++) {
      read++;
      yield Buffer.from(`From a@b Mon Jan  1 10:00:00 2024\nSubject: ${i}\n\nbody ${i}\n\n`, 'latin1');
    }
  }
  const it = mboxMessages(chunks());
  const first = await it.next();
  assert.equal(first.done, false);
  assert.equal(first.value!.raw!.toString('latin1'), 'Subject: 0\n\nbody 0\n');
  assert.ok(read <= 2, `read ${read} chunks for the first message`);
  await it.return(undefined);
});

test('split: a message over the size limit is reported, not kept; the next one is intact', () => {
  const big = `From a@b Mon Jan  1 10:00:00 2024\nSubject: big\n\n${'y'.repeat(500)}\n\n`;
  const small = 'From c@d Tue Jan  2 10:00:00 2024\nSubject: small\n\nok\n';
  for (const chunk of [7, 4096]) {
    const [a, b] = split(Buffer.from(big + small, 'latin1'), chunk, 100);
    assert.equal(a!.raw, null);
    assert.equal(a!.size, `Subject: big\n\n${'y'.repeat(500)}\n`.length);
    assert.equal(b!.raw!.toString('latin1'), 'Subject: small\n\nok\n');
    assert.equal(b!.line, 6);
  }
});

test('split: a line far longer than a separator, fed in small chunks, is kept whole (and unquoted)', () => {
  const long = 'z'.repeat(200_000);
  const buf = Buffer.from(
    `From a@b Mon Jan  1 10:00:00 2024\nSubject: long\n\n>From ${long}\n${long}\nend\n`,
    'latin1',
  );
  const [m] = split(buf, 1000);
  assert.equal(m!.raw!.toString('latin1'), `Subject: long\n\nFrom ${long}\n${long}\nend\n`);
});

test('mbox: an HTML-only mail becomes clean text: entities decoded, no head, title, comments or style', async () => {
  const file = [
    'From news@shop.example Wed Jan  3 10:00:00 2024',
    'From: Shop <news@shop.example>',
    'Subject: Your order',
    'Date: Wed, 3 Jan 2024 08:00:00 -0800',
    'Message-ID: <m3@example.com>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/alternative; boundary="BB"',
    '',
    '--BB',
    'Content-Type: text/html; charset=utf-8',
    '',
    '<html><head><title>Newsletter title</title><style>p{color:red}</style></head><body>' +
      '<!--[if mso]><p>MSO only</p><![endif]--><!-- tracking note -->' +
      '<p>It&#39;s shipped &quot;today&quot; &eacute;t&eacute; &#8212; order&nbsp;#42 &mdash; &hellip;</p>' +
      '<p>Total: &euro;12<br>VAT: &#x20AC;2</p>' +
      '<table><tr><td>Item</td><td>Qty 1</td></tr></table>' +
      '<p><a href="https://t.example/x?id=1">Track it</a><img src="https://t.example/p.gif" alt="pixel"></p>' +
      '<script>track()</script></body></html>',
    '--BB--',
    '',
  ].join('\n');
  const t = writeTree({ 'Shop.mbox': file });
  try {
    const { records } = await collect(parseMbox(join(t.root, 'Shop.mbox'), {}));
    const c = records[0]!.body.content;
    assert.ok(typeof c === 'object' && c.kind === 'message');
    assert.equal(
      c.text,
      'Subject: Your order\nFrom: Shop <news@shop.example>\n\n' +
        'It\'s shipped "today" été — order #42 — …\n\nTotal: €12\nVAT: €2\n\nItem\nQty 1\n\nTrack it',
    );
  } finally {
    t.remove();
  }
});

test('mbox: a mail without a usable Date: header is dated by its separator line, not the import', async () => {
  const file = [
    'From carol@example.com Thu Jan  4 10:00:00 2024',
    'From: Carol <carol@example.com>',
    'Subject: No date here',
    'Message-ID: <m4@example.com>',
    '',
    'Plain body without a date header.',
    '',
    'From 1787396749018367432@xxx Fri Jan 05 23:30:00 -0500 2024',
    'From: Dan <dan@example.com>',
    'Subject: Unreadable date',
    'Date: sometime last week',
    'Message-ID: <m5@example.com>',
    '',
    'Gmail Takeout writes the zone before the year.',
    '',
    'From eve@example.com Sat Jan  6 09:00:00 2024',
    'From: Eve <eve@example.com>',
    'Subject: Has a date',
    'Date: Sat, 6 Jan 2024 08:15:00 +0000',
    '',
    'The header wins.',
    '',
  ].join('\n');
  const t = writeTree({ 'Dates.mbox': file });
  try {
    const { records } = await collect(parseMbox(join(t.root, 'Dates.mbox'), {}));
    assert.deepEqual(
      records.map((r) => r.body.occurred_at),
      ['2024-01-04T10:00:00.000Z', '2024-01-06T04:30:00.000Z', '2024-01-06T08:15:00.000Z'],
    );
  } finally {
    t.remove();
  }
});

test("mbox: a Date: that names no zone is read as UTC, whatever the machine's zone", async () => {
  const file = [
    'From a@example.com Thu Jan  4 10:00:00 2024',
    'From: A <a@example.com>',
    'Date: Thu, 4 Jan 2024 10:00:00',
    'Message-ID: <z1@example.com>',
    '',
    'No zone.',
    '',
    'From b@example.com Thu Jan  4 11:00:00 2024',
    'From: B <b@example.com>',
    'Date: Thu, 4 Jan 2024 10:00:00 (CET)',
    'Message-ID: <z2@example.com>',
    '',
    'A comment is not a zone.',
    '',
    'From c@example.com Thu Jan  4 12:00:00 2024',
    'From: C <c@example.com>',
    'Date: Thu, 4 Jan 2024 10:00:00 EST',
    'Message-ID: <z3@example.com>',
    '',
    'A named zone is kept.',
    '',
    'From d@example.com Thu Jan  4 13:00:00 2024',
    'From: D <d@example.com>',
    'Date: Thu, 4 Jan 2024 10:00:00 GMT+1',
    'Message-ID: <z4@example.com>',
    '',
    'An offset after GMT is kept.',
    '',
    'From e@example.com Thu Jan  4 14:00:00 2024',
    'From: E <e@example.com>',
    'Date: 2024-01-04T10:00:00',
    'Message-ID: <z5@example.com>',
    '',
    'An ISO time without a zone.',
    '',
  ].join('\n');
  const t = writeTree({ 'Zones.mbox': file });
  const machineZone = process.env.TZ;
  try {
    for (const tz of ['Asia/Tokyo', 'America/Los_Angeles']) {
      process.env.TZ = tz;
      const { records } = await collect(parseMbox(join(t.root, 'Zones.mbox'), {}));
      assert.deepEqual(
        records.map((r) => r.body.occurred_at),
        [
          '2024-01-04T10:00:00.000Z',
          '2024-01-04T10:00:00.000Z',
          '2024-01-04T15:00:00.000Z',
          '2024-01-04T09:00:00.000Z',
          '2024-01-04T10:00:00.000Z',
        ],
        tz,
      );
    }
  } finally {
    if (machineZone === undefined) delete process.env.TZ;
    else process.env.TZ = machineZone;
    t.remove();
  }
});

test('separatorDate reads asctime, Gmail Takeout and RFC 5322 style separators; null without a date', () => {
  assert.equal(separatorDate('From a@b Thu Jan  4 10:00:00 2024'), '2024-01-04T10:00:00.000Z');
  assert.equal(separatorDate('From - Thu Jan 04 10:00 2024'), '2024-01-04T10:00:00.000Z');
  assert.equal(separatorDate('From 17873@xxx Thu Jan 04 10:00:00 +0100 2024'), '2024-01-04T09:00:00.000Z');
  assert.equal(separatorDate('From a@b Thu, 4 Jan 2024 10:00:00 -0230'), '2024-01-04T12:30:00.000Z');
  assert.equal(separatorDate('From a@b Thu Feb 30 10:00:00 2024'), null);
  assert.equal(separatorDate('From a@b here 10:00:00 2024'), null);
});

test("mbox: a reply that comes before its thread's first mail is still named after that mail", async () => {
  const file = [
    'From b@example.org Tue Mar  5 18:30:00 2024',
    'From: b@example.org',
    'Subject: Re: venue changed',
    'Message-ID: <reply@example.org>',
    'References: <root@example.org>',
    '',
    'See you there.',
    '',
    'From a@example.org Mon Mar  4 09:00:00 2024',
    'From: a@example.org',
    'Subject: Offsite in Porto',
    'Message-ID: <root@example.org>',
    '',
    'Plans.',
    '',
  ].join('\n');
  const t = writeTree({ 'Order.mbox': file });
  try {
    const { records } = await collect(parseMbox(join(t.root, 'Order.mbox'), {}));
    const threads = records.map((r) => (r.body.content as { thread?: string }).thread);
    assert.deepEqual(threads, ['Offsite in Porto <root@example.org>', 'Offsite in Porto <root@example.org>']);
  } finally {
    t.remove();
  }
});

test('a saved mail (.eml, no separator) is one mail, the same item as that mail inside an mbox', async () => {
  const reply = mbox
    .split('\n')
    .slice(mbox.split('\n').indexOf('From sam@example.com Tue Mar  5 18:30:00 2024') + 1);
  const eml = reply.slice(0, reply.indexOf('From MAILER-DAEMON Wed Mar  6 07:00:00 2024')).join('\n');
  const t = writeTree({
    'Inbox.mbox': Buffer.from(mbox, 'utf8'),
    'Re Offsite.eml': Buffer.from(
      `Return-Path: <sam@example.com>\r\nReceived: from mx.example.com\r\n\tby mail.example.org; Tue, 5 Mar 2024 19:30:01 +0200\r\n${eml}`,
      'utf8',
    ),
    'notes.eml': Buffer.from('Just some text that is not a mail.\n', 'utf8'),
  });
  try {
    const inMbox = (await collect(parseMbox(join(t.root, 'Inbox.mbox'), {}))).records[1]!.body;
    const { records, skips } = await collect(parseMbox(join(t.root, 'Re Offsite.eml'), {}));
    assert.deepEqual(skips, []);
    assert.equal(records.length, 1);
    const saved = records[0]!.body;
    assert.equal(saved.source.external_id, 'mbox:<reply-2@example.com>');
    assert.ok(typeof saved.content === 'object' && saved.content.kind === 'message');
    assert.ok(typeof inMbox.content === 'object' && inMbox.content.kind === 'message');
    assert.deepEqual(
      [saved.source, saved.occurred_at, saved.content.text, saved.content.speaker],
      [inMbox.source, inMbox.occurred_at, inMbox.content.text, inMbox.content.speaker],
    );
    // Its thread's first mail is not in the file: the thread goes by its own subject, as a reply's
    // does in an mbox without that mail.
    assert.equal(saved.content.thread, 'Offsite in Porto à confirmer <root-1@example.org>');
    assert.equal(records[0]!.ref, 'message <reply-2@example.com>');
    // A file that opens as no mail is said to be none, as before.
    const other = await collect(parseMbox(join(t.root, 'notes.eml'), {}));
    assert.deepEqual(
      [other.records.length, other.skips.map((s) => s.reason)],
      [0, ['no "From " separator line: not an mbox file']],
    );
  } finally {
    t.remove();
  }
});

test('a mail without a Message-ID is named the same whatever its line ends, as before when ended by one LF', () => {
  const lf = Buffer.from('From: Ana <ana@example.org>\nSubject: Keys\n\nUnder the mat.\n');
  const old = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex').slice(0, 32)}`;
  const { id, former } = contentIds(lf);
  // Every mail but the last of an LF mbox is ended by one LF: its id is the one it always had.
  assert.equal(id, old(lf));
  assert.deepEqual(former.includes(id), false);
  const crlf = Buffer.from(lf.toString().replace(/\n/g, '\r\n'));
  // The CRLF copies the splitter gives: before a separator (its blank line without the LF), last.
  for (const b of [
    crlf,
    Buffer.concat([crlf, Buffer.from('\r')]),
    lf.subarray(0, -1),
    Buffer.from(`${lf}\n`),
  ]) {
    assert.equal(contentIds(b).id, id);
    // The id an earlier version gave it is one the import looks for (former-ids.ts).
    assert.ok(contentIds(b).former.includes(old(b)) || old(b) === id);
    assert.ok(former.includes(old(b)), "the LF mail knows the CRLF copy's old id too");
  }
});

test('mbox: the person\'s mail is theirs under "Last, First" or a bare address; others go by First Last', async () => {
  const mail = (id: string, from: string, body: string) =>
    [
      `From ana@example.com Tue Mar 12 10:00:00 2024`,
      `From: ${from}`,
      'To: Bruno Costa <bruno@example.com>',
      `Subject: Note ${id}`,
      `Message-ID: <${id}@example.com>`,
      'Date: Tue, 12 Mar 2024 10:00:00 +0000',
      '',
      body,
      '',
      '',
    ].join('\n');
  const t = writeTree({
    'Sent.mbox': [
      mail('a', 'Ana Silva <ana@example.com>', 'First.'),
      mail('b', '"Silva, Ana" <ana@work.example>', 'Second.'),
      mail('c', 'ana@example.com', 'Third.'),
      mail('d', 'Bruno Costa <bruno@example.com>', 'Fourth.'),
      mail('e', '"Diaz, Carol" <carol@example.com>', 'Fifth.'),
      mail('f', '"Acme, Inc." <billing@acme.example>', 'Sixth.'),
      mail('g', '"Carol Diaz, PhD" <carol@uni.example>', 'Seventh.'),
    ].join(''),
  });
  try {
    const { records } = await collect(parseMbox(join(t.root, 'Sent.mbox'), { selfName: 'Ana Silva' }));
    assert.deepEqual(
      records.map((r) =>
        typeof r.body.content === 'object' && r.body.content.kind === 'message'
          ? r.body.content.speaker
          : null,
      ),
      ['self', 'self', 'self', 'Bruno Costa', 'Carol Diaz', 'Acme, Inc.', 'Carol Diaz, PhD'],
    );
  } finally {
    t.remove();
  }
});

/** A mail that forwards another as a message/rfc822 part, with the part's own headers (`part`). */
const forwarding = (part: string[] = []) =>
  [
    'From ana@example.com Tue Mar 12 10:00:00 2024',
    'From: Ana Silva <ana@example.com>',
    'To: Bruno Costa <bruno@example.com>',
    'Subject: Fwd: Dentist appointment',
    'Message-ID: <fwd-1@example.com>',
    'Date: Tue, 12 Mar 2024 10:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'See below.',
    '--b1',
    'Content-Type: message/rfc822',
    ...part,
    '',
    'From: Clinica Sorriso <info@sorriso.example>',
    'To: ana@example.com',
    'Subject: Dentist appointment',
    'Date: Fri, 08 Mar 2024 10:00:00 +0100',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Your appointment is on 20 March at 15:30.',
    '--b1--',
    '',
    '',
  ].join('\n');

test("a mail forwarded as an attachment shows its date as its header says it, not in this machine's zone", async () => {
  const raw = forwarding();
  const t = writeTree({ 'Fwd.mbox': raw });
  try {
    const { records } = await collect(parseMbox(join(t.root, 'Fwd.mbox'), {}));
    const text = (records[0]!.body.content as { text: string }).text;
    assert.match(text, /\nDate: +2024-03-08T09:00:00\.000Z\n/);
    assert.match(text, /Your appointment is on 20 March at 15:30\./);
  } finally {
    t.remove();
  }
});

test("mbox: Gmail Takeout's Spam and Trash are skipped with the reason, labelled mail is kept", async () => {
  const mail = (n: number, labels: string) =>
    [
      `From 1790${n}@xxx Thu Jan 04 10:00:0${n} +0000 2024`,
      `X-GM-THRID: 1790${n}`,
      `X-Gmail-Labels: ${labels}`,
      `Message-ID: <m${n}@example.org>`,
      'From: Prize Dept <win@prize.example>',
      'Subject: Congratulations',
      `Date: Thu, 4 Jan 2024 10:00:0${n} +0000`,
      '',
      `You won a Tesla Model ${n}!`,
      '',
    ].join('\n');
  const t = writeTree({
    'All mail Including Spam and Trash.mbox': [
      mail(1, 'Inbox,Opened'),
      mail(2, 'Spam'),
      mail(3, 'Trash,Important'),
      mail(4, 'Archived, spam'),
      mail(5, '=?UTF-8?Q?Trash,Opened,=C3=89cole?='),
    ].join('\n'),
  });
  try {
    const { records, skips } = await collect(
      parseMbox(join(t.root, 'All mail Including Spam and Trash.mbox'), {}),
    );
    assert.deepEqual(
      records.map((r) => r.body.source?.external_id),
      ['mbox:<m1@example.org>'],
    );
    assert.deepEqual(
      skips.map((s) => s.reason),
      [
        "in Gmail's Spam: not imported",
        "in Gmail's Trash: not imported",
        "in Gmail's Spam: not imported",
        "in Gmail's Trash: not imported",
      ],
    );
  } finally {
    t.remove();
  }
});

test('a mail forwarded as an attachment: its words are in the Record, below a forward marker', async () => {
  const forwarded = forwarding(['Content-Disposition: attachment; filename="Dentist appointment.eml"']);
  const t = writeTree({ 'Fwd.mbox': Buffer.from(forwarded, 'utf8') });
  try {
    const { records } = await collect(parseMbox(join(t.root, 'Fwd.mbox'), {}));
    assert.equal(records.length, 1);
    const content = records[0]!.body.content;
    assert.ok(typeof content === 'object' && content.kind === 'message');
    assert.match(
      content.text,
      /See below\.\n\n---------- Forwarded message ---------\nFrom: Clinica Sorriso <info@sorriso\.example>\n/,
    );
    assert.match(content.text, /\nDate: 2024-03-08T09:00:00\.000Z\nSubject: Dentist appointment\n/);
    assert.match(content.text, /Your appointment is on 20 March at 15:30\.$/);
    assert.doesNotMatch(content.text, /\[attachment: Dentist appointment\.eml/);
  } finally {
    t.remove();
  }
});

test('mbox: mail sent to a list of subscribers is marked bulk; a discussion list and the person’s own are not', async () => {
  const mail = (from: string, head: string[], body: string) =>
    [
      `From ${from} Mon Mar  4 09:00:00 2024`,
      `From: ${from}`,
      'To: ana@example.org',
      `Subject: ${body}`,
      'Date: Mon, 4 Mar 2024 10:00:00 +0000',
      ...head,
      '',
      body,
      '',
    ].join('\n');
  const file = [
    mail('news@shop.example', ['List-Unsubscribe: <https://shop.example/u?t=secret>'], 'unsubscribe header'),
    mail('digest@news.example', ['List-Id: Daily <daily.news.example>'], 'list id'),
    mail('offers@shop.example', ['Precedence: bulk'], 'precedence bulk'),
    mail('hub@forum.example', ['Precedence: junk'], 'precedence junk'),
    mail(
      'carol@acme.example',
      [
        'List-Id: <hikers.groups.example>',
        'List-Post: <mailto:hikers@groups.example>',
        'List-Unsubscribe: <x>',
      ],
      'discussion list',
    ),
    mail('announce@acme.example', ['List-Id: <announce.acme.example>', 'List-Post: NO'], 'announcements'),
    mail('ana@example.org', ['List-Id: <hikers.groups.example>'], 'her own post'),
    mail('noreply@airline.example', [], 'booking from noreply'),
    mail('bob@example.org', ['Precedence: first-class'], 'no list'),
  ].join('\n');
  const tree = writeTree({ 'm.mbox': file });
  try {
    const { records } = await collect(parseMbox(join(tree.root, 'm.mbox'), { selfName: 'ana@example.org' }));
    const marked = records.map((r) => {
      const c = r.body.content;
      assert.ok(typeof c !== 'string' && c.kind === 'message');
      const [head, body] = c.text.split('\n\n');
      return [body, /\nPrecedence: bulk$/u.test(head!)];
    });
    assert.deepEqual(marked, [
      ['unsubscribe header', true],
      ['list id', true],
      ['precedence bulk', true],
      ['precedence junk', true],
      ['discussion list', false],
      ['announcements', true],
      ['her own post', false],
      ['booking from noreply', false],
      ['no list', false],
    ]);
    assert.ok(!records.some((r) => JSON.stringify(r.body).includes('secret')));
  } finally {
    tree.remove();
  }
});
