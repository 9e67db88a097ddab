import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collect, writeTree } from '../test-support.ts';
import { parseSlack, slackText } from './slack.ts';

const users = [
  { id: 'U01', name: 'sam', real_name: 'Sam Lee', profile: { display_name: '', real_name: 'Sam Lee' } },
  { id: 'U02', name: 'ana', real_name: 'Ana Souza', profile: { display_name: 'ana.s' } },
];
const channels = [{ id: 'C0GEN', name: 'general' }];
const day = [
  {
    type: 'message',
    subtype: 'channel_join',
    user: 'U02',
    text: '<@U02> has joined the channel',
    ts: '1705312800.000100',
  },
  {
    type: 'message',
    user: 'U01',
    text: 'Launch moved to *Feb 2* — <@U02> can you update <https://wiki.example/launch|the plan>? cc <!here> &amp; <#C0GEN|general>',
    ts: '1705312860.000200',
    thread_ts: '1705312860.000200',
    reply_count: 1,
  },
  {
    type: 'message',
    user: 'U02',
    text: 'Done.\nAlso moved the demo.',
    ts: '1705312920.000300',
    thread_ts: '1705312860.000200',
    parent_user_id: 'U01',
  },
  {
    type: 'message',
    user: 'U02',
    text: '',
    files: [{ id: 'F1', name: 'roadmap.pdf', title: 'Roadmap' }],
    ts: '1705313000.000400',
  },
  {
    type: 'message',
    bot_id: 'B1',
    username: 'deploybot',
    subtype: 'bot_message',
    text: 'Deployed v1.4',
    ts: '1705313100.000500',
  },
  {
    type: 'message',
    bot_id: 'B2',
    username: 'pagerbot',
    subtype: 'bot_message',
    text: '',
    attachments: [
      {
        fallback: 'Disk full on db-1 (ignored: the attachment has its own words)',
        title: 'Disk full',
        text: 'db-1 at 98%',
      },
      { fallback: 'Ack by <!subteam^S0OPS|@oncall>' },
    ],
    ts: '1705313160.000600',
  },
  {
    type: 'message',
    bot_id: 'B3',
    bot_profile: { id: 'B3', name: 'standup' },
    text: '',
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: 'Standup <!date^1705316400^{time}|at 11:00>' } },
      { type: 'section', fields: [{ type: 'mrkdwn', text: '*Owner:* <@U01>' }] },
      { type: 'divider' },
    ],
    ts: '1705313220.000700',
  },
  {
    type: 'message',
    user: 'U02',
    text: 'See <https://news.example/a> <!subteam^S0DES>',
    attachments: [
      { title: 'A headline', text: 'The linked page says this.', from_url: 'https://news.example/a' },
    ],
    ts: '1705313280.000800',
  },
  {
    type: 'message',
    user: 'U01',
    text: '',
    attachments: [{ is_share: true, author_name: 'Bob Stone', text: 'I will quit next month' }],
    ts: '1705313340.000900',
  },
  { type: 'message', user: 'U01', text: 'no timestamp' },
];

test('Slack export folder: names, markup, threads, files, notices skipped', async () => {
  const t = writeTree({
    'users.json': JSON.stringify(users),
    'channels.json': JSON.stringify(channels),
    'general/2024-01-15.json': JSON.stringify(day),
    'general/2024-01-16.json': '[{"type": "message", "user": "U01", "text": "truncated',
    'general/notes.txt': 'not a day file',
  });
  try {
    const { records, skips } = await collect(parseSlack(t.root, { selfName: 'sam' }));
    assert.deepEqual(
      records.map((r) => r.body),
      [
        {
          content: {
            kind: 'message',
            text: 'Launch moved to Feb 2 — @Ana Souza can you update the plan (https://wiki.example/launch)? cc @here & #general',
            speaker: 'self',
            thread: '#general thread 1705312860.000200',
          },
          source: { name: 'slack', external_id: 'slack:C0GEN:1705312860.000200' },
          occurred_at: '2024-01-15T10:01:00.000Z',
        },
        {
          content: {
            kind: 'message',
            text: 'Done.\nAlso moved the demo.',
            speaker: 'Ana Souza',
            thread: '#general thread 1705312860.000200',
          },
          source: { name: 'slack', external_id: 'slack:C0GEN:1705312920.000300' },
          occurred_at: '2024-01-15T10:02:00.000Z',
        },
        {
          content: {
            kind: 'message',
            text: '[attachment: roadmap.pdf]',
            speaker: 'Ana Souza',
            thread: '#general',
          },
          source: { name: 'slack', external_id: 'slack:C0GEN:1705313000.000400' },
          occurred_at: '2024-01-15T10:03:20.000Z',
        },
        {
          content: { kind: 'message', text: 'Deployed v1.4', speaker: 'deploybot', thread: '#general' },
          source: { name: 'slack', external_id: 'slack:C0GEN:1705313100.000500' },
          occurred_at: '2024-01-15T10:05:00.000Z',
        },
        {
          content: {
            kind: 'message',
            text: 'Disk full\ndb-1 at 98%\nAck by @oncall',
            speaker: 'pagerbot',
            thread: '#general',
          },
          source: { name: 'slack', external_id: 'slack:C0GEN:1705313160.000600' },
          occurred_at: '2024-01-15T10:06:00.000Z',
        },
        {
          content: {
            kind: 'message',
            text: 'Standup at 11:00\nOwner: @Sam Lee',
            speaker: 'standup',
            thread: '#general',
          },
          source: { name: 'slack', external_id: 'slack:C0GEN:1705313220.000700' },
          occurred_at: '2024-01-15T10:07:00.000Z',
        },
        {
          content: {
            kind: 'message',
            text: 'See https://news.example/a @S0DES',
            speaker: 'Ana Souza',
            thread: '#general',
          },
          source: { name: 'slack', external_id: 'slack:C0GEN:1705313280.000800' },
          occurred_at: '2024-01-15T10:08:00.000Z',
        },
      ],
    );
    assert.deepEqual(
      skips.map((s) => s.reason.replace(/:.*/, '')),
      ['Slack notice (channel_join)', 'message has no text', 'message has no ts', 'unreadable JSON'],
    );
  } finally {
    t.remove();
  }
});

test('Slack mrkdwn: bold, italic and strike marks go, code keeps every character', () => {
  const names = new Map([['U01', 'Sam Lee']]);
  const said = (text: string) => slackText(text, names);
  assert.equal(said('*Ship* it _today_, ~not~ tomorrow'), 'Ship it today, not tomorrow');
  assert.equal(said('*bold _and italic_*'), 'bold and italic');
  assert.equal(
    said('see <https://wiki.example/p?a=1&amp;b=2|*the plan*>'),
    'see the plan (https://wiki.example/p?a=1&b=2)',
  );
  // What only looks like a mark is what was typed.
  assert.equal(said('snake_case_name, 2*3*4 and a lone * star'), 'snake_case_name, 2*3*4 and a lone * star');
  // Code is what was typed, marks and all; only Slack's escaping is undone.
  assert.equal(said('run `a*b*c_d_` now'), 'run `a*b*c_d_` now');
  assert.equal(
    said('```\nif (x &lt; 1) *p = _q_; ~r~\n``` <@U01>'),
    '```\nif (x < 1) *p = _q_; ~r~\n``` @Sam Lee',
  );
  assert.equal(said('&gt; *quoted* words\nreply'), '> quoted words\nreply');
  // A pasted log of thousands of quoted lines is kept, marks and all, not lost with its file. Far past
  // any stack's depth: how deep the parser gets depends on how V8 compiled it in that run.
  const log = Array.from({ length: 50_000 }, (_, i) => `&gt; line *${i}* of <@U01>`).join('\n');
  assert.equal(said(log), log.replace(/&gt;/g, '>').replace(/<@U01>/g, '@Sam Lee'));
});

test('Slack: a file chosen as a Slack export is one skip that says an export is a folder', async () => {
  const t = writeTree({ 'mail.mbox': 'From a@b Mon Jan  1 10:00:00 2024\nSubject: x\n\nhi\n' });
  try {
    const { records, skips } = await collect(parseSlack(`${t.root}/mail.mbox`, {}));
    assert.equal(records.length, 0);
    assert.deepEqual(
      skips.map((s) => s.reason),
      ['not a Slack export: Slack exports a folder (or its .zip) of channels, not one file'],
    );
  } finally {
    t.remove();
  }
});

test('Slack: direct and group messages are threads named by the people in them, the person left out', async () => {
  const dana = { id: 'U03', name: 'dana', real_name: 'Dana Lee', profile: {} };
  const hello = (user: string, ts: string) => [{ type: 'message', user, text: 'hi there', ts }];
  const t = writeTree({
    'users.json': JSON.stringify([...users, dana]),
    'channels.json': JSON.stringify(channels),
    'dms.json': JSON.stringify([{ id: 'D01', members: ['U01', 'U02'] }]),
    'mpims.json': JSON.stringify([
      { id: 'G01', name: 'mpdm-sam--ana--dana-1', members: ['U01', 'U02', 'U03'] },
    ]),
    'D01/2024-03-05.json': JSON.stringify(hello('U02', '1709632800.000100')),
    'mpdm-sam--ana--dana-1/2024-03-05.json': JSON.stringify(hello('U03', '1709632900.000100')),
  });
  try {
    const threads = async (selfName?: string) =>
      (await collect(parseSlack(t.root, selfName === undefined ? {} : { selfName }))).records.map((r) => [
        (r.body.content as { thread: string }).thread,
        r.body.source.external_id,
      ]);
    assert.deepEqual(await threads('sam'), [
      ['DM with Ana Souza', 'slack:D01:1709632800.000100'],
      ['Group DM with Ana Souza, Dana Lee', 'slack:G01:1709632900.000100'],
    ]);
    // Without --self, everyone in it.
    assert.deepEqual(
      (await threads()).map(([thread]) => thread),
      ['DM with Sam Lee, Ana Souza', 'Group DM with Sam Lee, Ana Souza, Dana Lee'],
    );
  } finally {
    t.remove();
  }
});

test("Slack: a person's message of rich-text blocks alone is read from them", async () => {
  const blocks = [
    {
      type: 'rich_text',
      elements: [
        {
          type: 'rich_text_section',
          elements: [
            { type: 'text', text: 'Moved the launch to Feb 2, ' },
            { type: 'user', user_id: 'U02' },
            { type: 'text', text: ' see ' },
            { type: 'link', url: 'https://wiki.example/launch', text: 'the plan' },
            { type: 'emoji', name: 'rocket' },
          ],
        },
        {
          type: 'rich_text_list',
          elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'book the room' }] }],
        },
        {
          type: 'rich_text_quote',
          elements: [{ type: 'text', text: 'line one\nI live in Berlin now' }],
        },
        {
          type: 'rich_text_section',
          elements: [
            { type: 'text', text: 'review by ' },
            { type: 'date', timestamp: 1705312900, fallback: 'Jan 15' },
          ],
        },
      ],
    },
  ];
  const t = writeTree({
    'users.json': JSON.stringify(users),
    'channels.json': JSON.stringify(channels),
    'general/2024-01-15.json': JSON.stringify([
      { type: 'message', user: 'U01', text: '', blocks, ts: '1705312900.000100' },
    ]),
  });
  try {
    const { records, skips } = await collect(parseSlack(t.root, {}));
    assert.deepEqual(skips, []);
    assert.equal(
      (records[0]!.body.content as { text: string }).text,
      'Moved the launch to Feb 2, @Ana Souza see the plan:rocket:\nbook the room\n> line one\n> I live in Berlin now\nreview by Jan 15',
    );
  } finally {
    t.remove();
  }
});
