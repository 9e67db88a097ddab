import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collect, writeTree } from '../test-support.ts';
import { parseMarkdown } from './markdown.ts';
import { parseMbox } from './mbox.ts';
import { parseSlack } from './slack.ts';
import { parseWhatsapp } from './whatsapp.ts';

// Imports run in the server process on files someone else wrote (a mail you were sent, a shared vault,
// a workspace export). Each shape below made one of the importers' regexes backtrack quadratically:
// a 160 KB note of "[[" took 54 s, an HTML mail of 160,000 spaces 48 s, with every request waiting.
// Linear parsing takes milliseconds; the bound tells a hang from a pass and is no performance target
// (ESLint's regexp rules guard the patterns themselves).
const n = 200_000;
const bound = 10_000;

async function timed(name: string, run: () => Promise<unknown>) {
  const started = Date.now();
  await run();
  const ms = Date.now() - started;
  assert.ok(ms < bound, `${name}: ${ms} ms`);
}

test('notes: runs of brackets, spaces and hashes', async () => {
  const t = writeTree({
    'brackets.md': `# Title\n\n${'[['.repeat(n / 2)}`,
    'links.md': `${'[[a'.repeat(n / 3)}|`,
    'spaces.md': `a${' '.repeat(n)}b`,
    'front.md': `---\ntitle: a${' '.repeat(n)}b\n---\nbody`,
    'heading.md': `#${' '.repeat(n)}`,
    'tags.md': `${'#a'.repeat(n / 2)}`,
  });
  try {
    await timed('markdown', () => collect(parseMarkdown(t.root, {})));
  } finally {
    t.remove();
  }
});

test('WhatsApp: spaces in the header, a notice mark before spaces, one long message', async () => {
  const t = writeTree({
    'WhatsApp Chat with Ana.txt': [
      `01/02/2024, 10:00${' '.repeat(n)}x`,
      `01/02/2024, 10:01 - Ana: \u200e${' '.repeat(n)}x`,
      `01/02/2024, 10:02 - Ana: ${'a '.repeat(n / 2)}`,
      `[01/02/2024, 10:03:00]${' '.repeat(n)}`,
    ].join('\n'),
  });
  try {
    await timed('whatsapp', () =>
      collect(parseWhatsapp(`${t.root}/WhatsApp Chat with Ana.txt`, { timeZone: 'UTC' })),
    );
  } finally {
    t.remove();
  }
});

test('mail: an HTML body of spaces, a subject of replies and spaces', async () => {
  const mail = (subject: string, type: string, body: string) =>
    [
      'From someone Wed Mar  6 07:00:00 2024',
      'From: a@example.com',
      `Subject: ${subject}`,
      'Date: Wed, 6 Mar 2024 07:00:00 +0000',
      `Content-Type: ${type}; charset=utf-8`,
      '',
      body,
      '',
    ].join('\n');
  const t = writeTree({
    'mail.mbox': [
      mail('Spaces', 'text/html', `<pre>${' '.repeat(n)}x</pre>`),
      mail('Tabs', 'text/html', `<p>a${'\t '.repeat(n / 2)}</p>b`),
      mail(`re:${' '.repeat(n)}x`, 'text/plain', 'hello'),
      mail('Re: '.repeat(n / 4), 'text/plain', 'hello'),
    ].join(''),
  });
  try {
    await timed('mbox', () => collect(parseMbox(`${t.root}/mail.mbox`, {})));
  } finally {
    t.remove();
  }
});

test('Slack: runs of unclosed mentions, channels, links and mail links', async () => {
  const texts = ['<@U1|', '<#C1|', '<http:', '<https://x|', '<mailto:', '<!here|'].map((s) =>
    s.repeat(n / s.length),
  );
  const t = writeTree({
    'users.json': JSON.stringify([{ id: 'U1', name: 'sam' }]),
    'channels.json': JSON.stringify([{ id: 'C1', name: 'general' }]),
    'general/2024-01-15.json': JSON.stringify(
      texts.map((text, i) => ({ type: 'message', user: 'U1', text, ts: `170531000${i}.000100` })),
    ),
  });
  try {
    await timed('slack', () => collect(parseSlack(t.root, {})));
  } finally {
    t.remove();
  }
});
