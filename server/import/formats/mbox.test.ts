import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { collect, writeTree } from '../test-support.ts';
import { baseSubject, parseMbox, splitMbox } from './mbox.ts';

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

test('splitMbox: separators only after a blank line, >From unquoted once', () => {
  const parts = splitMbox(Buffer.from(mbox, 'latin1'));
  assert.equal(parts.length, 4);
  const first = parts[0]!.raw.toString('latin1');
  assert.match(first, /\nFrom the budget side/, '>From is unquoted');
  assert.match(
    first,
    /\nFrom here on, plans are final\./,
    'a body line starting with From is not a separator',
  );
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
    assert.equal(root!.content.speaker, 'Alice Martin <alice@example.org>');
    assert.equal(root!.content.thread, 'Offsite in Porto <root-1@example.org>');
    assert.match(
      root!.content.text,
      /^Subject: Offsite in Porto\nFrom: Alice Martin <alice@example.org>\nTo: Sam Lee <sam@example.com>, team@example.com\nCc: Jürgen <juergen@example.de>\n\nHi all,/,
    );
    assert.equal(root!.occurred_at, '2024-03-04T09:00:00.000Z');
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
    assert.equal(reply!.occurred_at, '2024-03-05T17:30:00.000Z');

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

test('baseSubject strips reply and forward prefixes', () => {
  assert.equal(baseSubject('Re: Fwd: RE[2]: Offsite'), 'Offsite');
  assert.equal(baseSubject('AW: Termin'), 'Termin');
});

test('mbox: raw 8-bit headers that are not UTF-8 read as Windows-1252, and so do Latin-1 bodies and Windows-1252 encoded-words; UTF-8 unchanged', async () => {
  const latin1 = (s: string) => Buffer.from(s, 'latin1');
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
    assert.equal(old.speaker, 'André Dupont <old@example.org>');
    assert.match(old.text, /^Subject: café € crème\n/);
    assert.match(
      old.text,
      /\n\nDéjà vu “€”\.\n\n\[attachment: reçu\.pdf \(application\/pdf\)\]\n\n\[attachment: “r”\.pdf \(application\/pdf\)\]$/,
    );
    assert.equal(old.thread, 'café € crème <latin@example.org>');
    assert.ok(typeof current === 'object' && current.kind === 'message');
    assert.equal(current.speaker, 'Zoë <new@example.org>');
    assert.match(current.text, /^Subject: naïve über “ok”\n[\s\S]*\n\nSchön\.$/);
  } finally {
    t.remove();
  }
});
