import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { collect, writeTree } from '../test-support.ts';
import { maxAttachmentChars, parseChatgpt, parseClaude } from './chat-exports.ts';

const node = (id: string, parent: string | null, children: string[], message: unknown) => ({
  id,
  parent,
  children,
  message,
});
const msg = (id: string, role: string, t: number, content: unknown, extra: Record<string, unknown> = {}) => ({
  id,
  author: { role },
  create_time: t,
  content,
  ...extra,
});

const chatgptExport = [
  {
    title: 'Trip to Porto',
    create_time: 1709550000.5,
    conversation_id: 'c-porto',
    current_node: 'm4',
    mapping: {
      root: node('root', null, ['m0'], null),
      m0: node('m0', 'root', ['m1'], msg('m0', 'system', 1709550001, { content_type: 'text', parts: [''] })),
      m1: node(
        'm1',
        'm0',
        ['m2', 'm2b'],
        msg('m1', 'user', 1709550002.25, {
          content_type: 'text',
          parts: ['I fly to Porto on May 3.\nHotel near Ribeira?'],
        }),
      ),
      m2b: node(
        'm2b',
        'm1',
        [],
        msg('m2b', 'assistant', 1709550003, { content_type: 'text', parts: ['(regenerated draft)'] }),
      ),
      m2: node(
        'm2',
        'm1',
        ['m3'],
        msg('m2', 'assistant', 1709550004, { content_type: 'text', parts: ['Try Pestana Vintage.'] }),
      ),
      m3: node(
        'm3',
        'm2',
        ['m4'],
        msg('m3', 'user', 1709550005, {
          content_type: 'multimodal_text',
          parts: [
            { content_type: 'image_asset_pointer', asset_pointer: 'file-service://file-abc' },
            'Is this the hotel?',
          ],
        }),
      ),
      m4: node('m4', 'm3', [], msg('m4', 'assistant', 1709550006, { content_type: 'text', parts: [''] })),
    },
  },
  { title: 'broken', mapping: null },
];

test('ChatGPT conversations.json: the current branch, user as self, attachments named', async () => {
  const t = writeTree({ 'export/conversations.json': JSON.stringify(chatgptExport) });
  try {
    const { records, skips } = await collect(parseChatgpt(join(t.root, 'export'), {}));
    assert.deepEqual(
      records.map((r) => r.body.source.external_id),
      ['chatgpt:c-porto/m1', 'chatgpt:c-porto/m2', 'chatgpt:c-porto/m3'],
      'system scaffolding and the unchosen regenerated draft are not imported',
    );
    const [m1, m2, m3] = records.map((r) => r.body);
    assert.deepEqual(m1!.content, {
      kind: 'message',
      text: 'I fly to Porto on May 3.\nHotel near Ribeira?',
      speaker: 'self',
      thread: 'Trip to Porto (c-porto)',
    });
    assert.equal(m1!.occurred_at, '2024-03-04T11:00:02.250Z');
    assert.equal(m2!.source.name, 'chatgpt');
    assert.ok(
      typeof m2!.content === 'object' && m2!.content.kind === 'message' && m2!.content.speaker === 'ChatGPT',
    );
    assert.ok(typeof m3!.content === 'object' && m3!.content.kind === 'message');
    assert.equal(m3!.content.text, '[attachment: image]\nIs this the hotel?');
    assert.deepEqual(
      skips.map((s) => s.reason),
      ['message has no text', 'not a ChatGPT conversation (no id or mapping)'],
    );
  } finally {
    t.remove();
  }
});

test('ChatGPT: a call to a tool is not something it said, and an untimed answer is not dated before its question', async () => {
  const conv = {
    title: 'Hotels',
    create_time: 1709550000,
    conversation_id: 'c-tools',
    current_node: 'a2',
    mapping: {
      root: node('root', null, ['q'], null),
      q: node(
        'q',
        'root',
        ['a1'],
        msg('q', 'user', 1709550100, { content_type: 'text', parts: ['Hotels in Porto?'] }),
      ),
      a1: node(
        'a1',
        'q',
        ['t'],
        msg(
          'a1',
          'assistant',
          1709550101,
          { content_type: 'code', text: 'search("Porto hotels")' },
          { recipient: 'browser' },
        ),
      ),
      t: node('t', 'a1', ['a2'], msg('t', 'tool', 1709550102, { content_type: 'text', parts: ['results'] })),
      a2: node('a2', 't', [], {
        ...msg('a2', 'assistant', 0, { content_type: 'text', parts: ['Try Pestana Vintage.'] }),
        create_time: null,
        recipient: 'all',
      }),
    },
  };
  const t = writeTree({ 'export/conversations.json': JSON.stringify([conv]) });
  try {
    const { records } = await collect(parseChatgpt(join(t.root, 'export'), {}));
    assert.deepEqual(
      records.map((r) => [(r.body.content as { text: string }).text, r.body.occurred_at]),
      [
        ['Hotels in Porto?', '2024-03-04T11:01:40.000Z'],
        ['Try Pestana Vintage.', '2024-03-04T11:01:42.000Z'],
      ],
    );
  } finally {
    t.remove();
  }
});

test('Claude conversations.json: content blocks, attachments, human as self', async () => {
  const claude = [
    {
      uuid: 'conv-1',
      name: 'Garden planning',
      created_at: '2024-04-01T09:00:00.000000+02:00',
      chat_messages: [
        {
          uuid: 'u1',
          sender: 'human',
          text: '',
          content: [{ type: 'text', text: 'Which tomatoes grow well on a north balcony?' }],
          created_at: '2024-04-01T09:00:05.123456+02:00',
          attachments: [{ file_name: 'balcony.txt', extracted_content: '2 m²' }],
          files: [{ file_name: 'photo.jpg' }],
        },
        {
          uuid: 'a1',
          sender: 'assistant',
          text: 'Cherry tomatoes such as "Sungold".',
          created_at: '2024-04-01T09:00:09Z',
        },
        { sender: 'human', text: 'lost uuid' },
        { uuid: 'a2', sender: 'assistant', text: '   ', created_at: '2024-04-01T09:01:00Z' },
      ],
    },
  ];
  const t = writeTree({ 'conversations.json': JSON.stringify(claude) });
  try {
    const { records, skips } = await collect(parseClaude(join(t.root, 'conversations.json'), {}));
    assert.equal(records.length, 3);
    assert.deepEqual(records[0]!.body, {
      content: {
        kind: 'message',
        text: 'Which tomatoes grow well on a north balcony?\n[attachment: balcony.txt]\n[attachment: photo.jpg]',
        speaker: 'self',
        thread: 'Garden planning (conv-1)',
      },
      source: { name: 'claude', external_id: 'claude:conv-1/u1' },
      occurred_at: '2024-04-01T07:00:05.123Z',
    });
    // What Claude read from the file is a document of its own, not words of the one who attached it.
    assert.deepEqual(records[1]!.body, {
      content: { kind: 'document', title: 'balcony.txt', text: '2 m²' },
      source: { name: 'claude', external_id: 'claude:conv-1/u1#balcony.txt' },
      occurred_at: '2024-04-01T07:00:05.123Z',
    });
    assert.equal((records[2]!.body.content as { speaker: string }).speaker, 'Claude');
    assert.deepEqual(
      skips.map((s) => s.reason),
      ['message has no uuid', 'message has no text'],
    );
  } finally {
    t.remove();
  }
});

test('Claude: an attachment text longer than the limit is cut, whole characters only, and the cut is noted', async () => {
  const long = 'a'.repeat(maxAttachmentChars - 1) + '😀' + 'tail';
  const claude = [
    {
      uuid: 'conv-2',
      name: 'Long file',
      chat_messages: [
        {
          uuid: 'u1',
          sender: 'human',
          text: 'Summarise this',
          created_at: '2024-04-01T09:00:00Z',
          attachments: [{ file_name: 'long.txt', extracted_content: long }],
        },
      ],
    },
  ];
  const t = writeTree({ 'conversations.json': JSON.stringify(claude) });
  try {
    const { records } = await collect(parseClaude(join(t.root, 'conversations.json'), {}));
    const doc = records[1]!;
    assert.equal((doc.body.content as { text: string }).text, 'a'.repeat(maxAttachmentChars - 1));
    assert.match(doc.note ?? '', /long\.txt: its first 200,000 characters of 200,005 are kept/);
  } finally {
    t.remove();
  }
});

test('Claude: a file listed under both keys is one; two files of one name with texts of their own are two', async () => {
  const claude = [
    {
      uuid: 'conv-3',
      name: 'Screenshots',
      chat_messages: [
        {
          uuid: 'u1',
          sender: 'human',
          text: 'What do these say?',
          created_at: '2024-04-01T09:00:00Z',
          attachments: [
            { file_name: 'image.png', extracted_content: 'Gate B12' },
            { file_name: 'image.png', extracted_content: 'Seat 14C' },
          ],
          files: [{ file_name: 'image.png' }, { file_name: 'image.png' }],
        },
      ],
    },
  ];
  const t = writeTree({ 'conversations.json': JSON.stringify(claude) });
  try {
    const { records } = await collect(parseClaude(join(t.root, 'conversations.json'), {}));
    assert.equal(
      (records[0]!.body.content as { text: string }).text,
      'What do these say?\n[attachment: image.png]\n[attachment: image.png]',
    );
    assert.deepEqual(
      records.slice(1).map((r) => [(r.body.content as { text: string }).text, r.body.source?.external_id]),
      [
        ['Gate B12', 'claude:conv-3/u1#image.png'],
        ['Seat 14C', 'claude:conv-3/u1#image.png (2)'],
      ],
    );
  } finally {
    t.remove();
  }
});

test("Claude: an artifact takes the place of the export's placeholder for it; a tool's result leaves nothing", async () => {
  const placeholder = '```\nThis block is not supported on your current device yet.\n```';
  const claude = [
    {
      uuid: 'conv-9',
      name: 'Garden plan',
      chat_messages: [
        {
          uuid: 'a1',
          sender: 'assistant',
          created_at: '2024-04-01T09:00:00Z',
          text: `Here is the plan.\n\n${placeholder}\n\n${placeholder}\n\nTell me if the dates work.`,
          content: [
            { type: 'text', text: 'Here is the plan.' },
            {
              type: 'tool_use',
              name: 'artifacts',
              input: {
                id: 'plan',
                type: 'text/markdown',
                title: 'Tomato plan',
                command: 'create',
                content: 'Transplant: 1 June',
              },
            },
            { type: 'tool_result', name: 'artifacts', content: [{ type: 'text', text: 'OK' }] },
            { type: 'text', text: 'Tell me if the dates work.' },
          ],
        },
        {
          uuid: 'a2',
          sender: 'assistant',
          created_at: '2024-04-01T09:01:00Z',
          text: placeholder,
          content: [{ type: 'tool_use', name: 'web_search', input: { query: 'tomato' } }],
        },
        {
          uuid: 'a3',
          sender: 'assistant',
          created_at: '2024-04-01T09:02:00Z',
          // Blocks that do not pair with the placeholders one to one follow the text.
          text: `Updated.\n\n${placeholder}\n\n${placeholder}`,
          content: [
            {
              type: 'tool_use',
              name: 'artifacts',
              input: { title: 'Tomato plan', content: 'Transplant: 8 June' },
            },
          ],
        },
      ],
    },
  ];
  const t = writeTree({ 'conversations.json': JSON.stringify(claude) });
  try {
    const { records, skips } = await collect(parseClaude(join(t.root, 'conversations.json'), {}));
    assert.deepEqual(
      records.map((r) => (r.body.content as { text: string }).text),
      [
        'Here is the plan.\n\n[artifact: Tomato plan]\nTransplant: 1 June\n\nTell me if the dates work.',
        'Updated.\n\n[artifact: Tomato plan]\nTransplant: 8 June',
      ],
    );
    assert.deepEqual(
      skips.map((s) => s.reason),
      ['message has no text'],
    );
  } finally {
    t.remove();
  }
});

test('ChatGPT: attachments are named as the message names its files, those without a part after the text', async () => {
  const conv = {
    id: 'c-lease',
    title: 'Lease',
    current_node: 'm2',
    mapping: {
      m1: node(
        'm1',
        null,
        ['m2'],
        msg(
          'm1',
          'user',
          1709550001,
          { content_type: 'text', parts: ['Summarize the attached PDF please'] },
          { metadata: { attachments: [{ id: 'file-pdf', name: 'lease-agreement-2024.pdf' }] } },
        ),
      ),
      m2: node(
        'm2',
        'm1',
        [],
        msg(
          'm2',
          'user',
          1709550002,
          {
            content_type: 'multimodal_text',
            parts: [
              { content_type: 'image_asset_pointer', asset_pointer: 'file-service://file-img' },
              'And this?',
            ],
          },
          { metadata: { attachments: [{ id: 'file-img', name: 'IMG_2041.jpeg' }] } },
        ),
      ),
    },
  };
  const t = writeTree({ 'conversations.json': JSON.stringify([conv]) });
  try {
    const { records } = await collect(parseChatgpt(join(t.root, 'conversations.json'), {}));
    assert.deepEqual(
      records.map((r) => (r.body.content as { text: string }).text),
      [
        'Summarize the attached PDF please\n[attachment: lease-agreement-2024.pdf]',
        '[attachment: IMG_2041.jpeg]\nAnd this?',
      ],
    );
  } finally {
    t.remove();
  }
});

test('a conversations.json cut short is refused naming the file and what likely happened', async () => {
  const t = writeTree({ 'conversations.json': '[{"id":"c1","title":"x","mapping":{"a":{"id":"a"' });
  try {
    await assert.rejects(
      collect(parseChatgpt(join(t.root, 'conversations.json'), {})),
      /^Error: conversations\.json is not valid JSON \(was the export cut short\?\): /u,
    );
  } finally {
    t.remove();
  }
});

test("ChatGPT: a canvas is the assistant's answer, its reasoning is not; other tool calls are steps", async () => {
  const conv = {
    id: 'c-essay',
    title: 'Essay',
    current_node: 'm4',
    mapping: {
      m1: node(
        'm1',
        null,
        ['m2'],
        msg('m1', 'user', 1709550001, { content_type: 'text', parts: ['Draft my cover letter'] }),
      ),
      m2: node(
        'm2',
        'm1',
        ['m3'],
        msg('m2', 'assistant', 1709550002, {
          content_type: 'thoughts',
          thoughts: [{ summary: 'Planning', content: 'Think about tone' }],
        }),
      ),
      m3: node(
        'm3',
        'm2',
        ['m4'],
        msg(
          'm3',
          'assistant',
          1709550003,
          {
            content_type: 'code',
            text: JSON.stringify({
              name: 'cover_letter',
              type: 'document',
              content: 'Dear Ms. Silva, I apply for the role.',
            }),
          },
          { recipient: 'canmore.create_textdoc' },
        ),
      ),
      m4: node(
        'm4',
        'm3',
        [],
        msg(
          'm4',
          'assistant',
          1709550004,
          { content_type: 'text', parts: ['{"query":"x"}'] },
          { recipient: 'web.run' },
        ),
      ),
    },
  };
  const t = writeTree({ 'conversations.json': JSON.stringify([conv]) });
  try {
    const { records, skips } = await collect(parseChatgpt(join(t.root, 'conversations.json'), {}));
    assert.deepEqual(
      records.map((r) => (r.body.content as { text: string; speaker: string }).text),
      ['Draft my cover letter', '[canvas: cover_letter]\nDear Ms. Silva, I apply for the role.'],
    );
    assert.deepEqual(
      skips.map((s) => s.reason),
      ["the model's reasoning, not its answer"],
    );
  } finally {
    t.remove();
  }
});

test("ChatGPT: an answer's source marks read as the export shows them, or go; custom instructions are the user's", async () => {
  const profile = (about: string) => ({
    content_type: 'user_editable_context',
    user_profile: `The user provided the following information about themselves.\nUser profile:\n\`\`\`${about}\`\`\``,
    user_instructions:
      'The user provided the additional info about how they would like you to respond:\n```Be concise.```',
  });
  const hidden = { is_visually_hidden_from_conversation: true };
  const conv = (id: string, t: number, about: string) => ({
    title: id,
    create_time: t,
    conversation_id: id,
    current_node: 'a',
    mapping: {
      root: node('root', null, ['ctx'], null),
      ctx: node('ctx', 'root', ['q'], msg('ctx', 'user', t, profile(about), { metadata: hidden })),
      q: node(
        'q',
        'ctx',
        ['a'],
        msg('q', 'user', t + 1, { content_type: 'text', parts: ['How big is Lisbon?'] }),
      ),
      a: node(
        'a',
        'q',
        [],
        msg(
          'a',
          'assistant',
          t + 2,
          {
            content_type: 'text',
            parts: [
              'About 545,000 residents \ue200cite\ue202turn0search1\ue201, ~2.9 million in the metro area【4:0†source】.',
            ],
          },
          {
            recipient: 'all',
            metadata: {
              content_references: [
                {
                  matched_text: '\ue200cite\ue202turn0search1\ue201',
                  alt: '([Wikipedia](https://en.wikipedia.org/wiki/Lisbon))',
                },
                { matched_text: '【4:0†source】', alt: '' },
              ],
            },
          },
        ),
      ),
    },
  });
  const t = writeTree({
    'export/conversations.json': JSON.stringify([
      conv('c-new', 1709560000, "I'm vegetarian and a PM in Lisbon."),
      conv('c-old', 1709550000, "I'm vegetarian and a PM in Lisbon."),
      conv('c-newest', 1709570000, "I'm vegan and a PM in Porto."),
    ]),
  });
  try {
    const { records } = await collect(parseChatgpt(join(t.root, 'export'), {}));
    const texts = records.map((r) => (r.body.content as { text: string }).text);
    assert.equal(
      texts[1],
      'About 545,000 residents ([Wikipedia](https://en.wikipedia.org/wiki/Lisbon)), ~2.9 million in the metro area.',
    );
    const own = records.filter(
      (r) => (r.body.content as { thread: string }).thread === 'ChatGPT custom instructions',
    );
    assert.deepEqual(
      own.map((r) => [(r.body.content as { text: string; speaker: string }).text, r.body.occurred_at]),
      [
        ["I'm vegetarian and a PM in Lisbon.", '2024-03-04T11:00:00.000Z'],
        ['Be concise.', '2024-03-04T11:00:00.000Z'],
        ["I'm vegan and a PM in Porto.", '2024-03-04T16:33:20.000Z'],
      ],
    );
    assert.ok(own.every((r) => (r.body.content as { speaker: string }).speaker === 'self'));
    assert.equal(
      records.length,
      6 + own.length,
      'each custom instruction once, however many conversations carry it',
    );
  } finally {
    t.remove();
  }
  // Set back to an earlier text, it is dated from its return: the newest, as in ChatGPT. A backtick of
  // the person's own stays in their words.
  const back = writeTree({
    'export/conversations.json': JSON.stringify([
      conv('c3', 1709570000, 'I live in Lisbon. I use `pnpm`.'),
      conv('c1', 1709550000, 'I live in Lisbon. I use `pnpm`.'),
      conv('c2', 1709560000, 'I live in Porto.'),
    ]),
  });
  try {
    const { records } = await collect(parseChatgpt(join(back.root, 'export'), {}));
    assert.deepEqual(
      records
        .filter((r) => (r.body.content as { thread: string }).thread === 'ChatGPT custom instructions')
        .map((r) => [(r.body.content as { text: string }).text, r.body.occurred_at])
        .filter(([text]) => text !== 'Be concise.'),
      [
        ['I live in Lisbon. I use `pnpm`.', '2024-03-04T16:33:20.000Z'],
        ['I live in Porto.', '2024-03-04T13:46:40.000Z'],
      ],
    );
  } finally {
    back.remove();
  }
});
