import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { detectFormat } from './detect-format.ts';
import { writeTree } from './test-support.ts';

test('detectFormat tells each export apart by markers, names and first bytes', async () => {
  const t = writeTree({
    'slack/users.json': '[]',
    'slack/channels.json': '[]',
    'vault/.obsidian/app.json': '{}',
    'vault/a.md': 'x',
    'notes/a.md': 'x',
    'vault/Board.canvas': '{"nodes":[]}',
    'gpt/conversations.json': '[{"title":"t","mapping":{}}]',
    'claude.json': '[{"uuid":"u","chat_messages":[]}]',
    'ios/_chat.txt': '[1/5/24, 9:04:05 PM] Ana: hi',
    'android.txt': '05/01/2024, 21:04 - Ana: hi',
    'plain.txt': 'hello',
    'cal.ics': 'BEGIN:VCALENDAR',
    'people.vcf': 'BEGIN:VCARD',
    Inbox: 'From a@b Mon Jan  1 00:00:00 2024\nSubject: x\n',
    'calendar-export': 'BEGIN:VCALENDAR\r\nVERSION:2.0',
    'Re lunch.eml': 'From: Ana <ana@example.org>\r\nSubject: lunch\r\n\r\nNoon?\r\n',
    'saved-mail': 'Return-Path: <ana@example.org>\r\nFrom: Ana <ana@example.org>\r\n\r\nNoon?\r\n',
  });
  const at = (p: string) =>
    detectFormat(join(t.root, p)).then((d) => d && [d.format, d.path.slice(t.root.length + 1)]);
  try {
    assert.deepEqual(await at('slack'), ['slack', 'slack']);
    assert.deepEqual(await at('vault'), ['obsidian', 'vault']);
    assert.deepEqual(await at('notes'), ['markdown', 'notes']);
    assert.deepEqual(await at('vault/Board.canvas'), ['markdown', 'vault/Board.canvas'], "Obsidian's canvas");
    assert.deepEqual(await at('gpt'), ['chatgpt', 'gpt/conversations.json']);
    assert.deepEqual(await at('claude.json'), ['claude', 'claude.json']);
    assert.deepEqual(await at('ios'), ['whatsapp', 'ios/_chat.txt']);
    assert.deepEqual(await at('android.txt'), ['whatsapp', 'android.txt']);
    assert.equal(await at('plain.txt'), null);
    assert.deepEqual(await at('cal.ics'), ['ics', 'cal.ics']);
    assert.deepEqual(await at('people.vcf'), ['vcf', 'people.vcf']);
    assert.deepEqual(await at('Inbox'), ['mbox', 'Inbox']);
    assert.deepEqual(await at('calendar-export'), ['ics', 'calendar-export']);
    assert.deepEqual(await at('Re lunch.eml'), ['mbox', 'Re lunch.eml']);
    assert.deepEqual(await at('saved-mail'), ['mbox', 'saved-mail']);
  } finally {
    t.remove();
  }
});

test('detectFormat reads a file head as the parsers do: UTF-16 with a BOM, UTF-8 cut inside a character', async () => {
  const utf16le = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
  const utf16be = (s: string) => Buffer.from(utf16le(s).map((_, i, b) => b[i % 2 === 0 ? i + 1 : i - 1]!));
  // The 4 KiB head ends inside the 3-byte U+200E of the second line.
  const lrm = '\u200e[05/01/2024, 21:04:05] Ana: ';
  const start = '[05/01/2024, 21:04:00] Ana: ';
  const first = `${start}${'x'.repeat(4095 - 3 - start.length - 1)}\n`;
  const t = writeTree({
    'WhatsApp Chat with Ana.txt': utf16le('31/12/2023, 21:04 - Ana: olá\n'),
    'WhatsApp Chat with Bo.txt': utf16be('31/12/2023, 21:04 - Bo: hej\n'),
    'calendar-export': utf16le('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n'),
    Inbox: utf16le('From a@b Mon Jan  1 00:00:00 2024\nSubject: x\n'),
    '_chat.txt': `\u200e${first}${lrm}hi\n`,
  });
  const at = (p: string) => detectFormat(join(t.root, p)).then((d) => d?.format ?? null);
  try {
    assert.equal(Buffer.byteLength(`\u200e${first}`), 4095, 'the fixture cuts U+200E at byte 4096');
    assert.equal(await at('WhatsApp Chat with Ana.txt'), 'whatsapp');
    assert.equal(await at('WhatsApp Chat with Bo.txt'), 'whatsapp');
    assert.equal(await at('calendar-export'), 'ics');
    assert.equal(await at('Inbox'), 'mbox');
    assert.equal(await at('_chat.txt'), 'whatsapp');
  } finally {
    t.remove();
  }
});
