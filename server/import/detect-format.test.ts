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
    'gpt/conversations.json': '[{"title":"t","mapping":{}}]',
    'claude.json': '[{"uuid":"u","chat_messages":[]}]',
    'ios/_chat.txt': '[1/5/24, 9:04:05 PM] Ana: hi',
    'android.txt': '05/01/2024, 21:04 - Ana: hi',
    'plain.txt': 'hello',
    'cal.ics': 'BEGIN:VCALENDAR',
    'people.vcf': 'BEGIN:VCARD',
    Inbox: 'From a@b Mon Jan  1 00:00:00 2024\nSubject: x\n',
    'calendar-export': 'BEGIN:VCALENDAR\r\nVERSION:2.0',
  });
  const at = (p: string) =>
    detectFormat(join(t.root, p)).then((d) => d && [d.format, d.path.slice(t.root.length + 1)]);
  try {
    assert.deepEqual(await at('slack'), ['slack', 'slack']);
    assert.deepEqual(await at('vault'), ['obsidian', 'vault']);
    assert.deepEqual(await at('notes'), ['markdown', 'notes']);
    assert.deepEqual(await at('gpt'), ['chatgpt', 'gpt/conversations.json']);
    assert.deepEqual(await at('claude.json'), ['claude', 'claude.json']);
    assert.deepEqual(await at('ios'), ['whatsapp', 'ios/_chat.txt']);
    assert.deepEqual(await at('android.txt'), ['whatsapp', 'android.txt']);
    assert.equal(await at('plain.txt'), null);
    assert.deepEqual(await at('cal.ics'), ['ics', 'cal.ics']);
    assert.deepEqual(await at('people.vcf'), ['vcf', 'people.vcf']);
    assert.deepEqual(await at('Inbox'), ['mbox', 'Inbox']);
    assert.deepEqual(await at('calendar-export'), ['ics', 'calendar-export']);
  } finally {
    t.remove();
  }
});
