import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  DeletionReceipt,
  ImportResult,
  RecordPage,
  SourceChatList,
  SourceList,
} from '../../engine/contract/index.ts';
import type { MnemoRecord } from '../../engine/contract/index.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { assertError, assertShape, type Client, type ServerFactory } from './harness.ts';
import { brainWithKey, ready, remember } from './suite-records.ts';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

const note = {
  name: 'Garden.md',
  content_base64: b64('---\ndate: 2024-02-03\n---\n# Garden\n\nThe quince tree was planted by the shed.\n'),
};
const chat = {
  name: 'WhatsApp Chat with Bo.txt',
  content_base64: b64(
    '12/01/2024, 09:15 - Bo: Lunch at the harbour on Friday?\n' +
      '12/01/2024, 09:16 - Ana: Yes, and bring the kayak maps\n' +
      'they are in the blue folder\n',
  ),
};

async function recordsOf(api: Client, brain: string, source: string): Promise<MnemoRecord[]> {
  const r = await api.get(`/brains/${brain}/records?source=${encodeURIComponent(source)}&limit=200`);
  assert.equal(r.status, 200, r.text);
  return assertShape(RecordPage, r.body).data;
}

async function importFiles(api: Client, brain: string, body: unknown): Promise<ImportResult> {
  const r = await api.post(`/brains/${brain}/imports`, body);
  assert.equal(r.status, 200, r.text);
  return assertShape(ImportResult, r.body);
}

/** listSources, forgetSource (removing a whole import) and importFiles: additive operations. */
export function sourceChecks(factory: ServerFactory): void {
  describe('sources and imports (additive)', () => {
    let server: RunningServer;
    before(async () => (server = await factory()));
    after(() => server.close());

    it('listSources names each source.name with counts, items (revisions of one once) and the span of occurred_at', async () => {
      const api = await brainWithKey(server);
      await remember(api, 'b', {
        content: 'note one',
        source: { name: 'obsidian', external_id: 'a.md' },
        occurred_at: '2024-01-02T10:00:00+01:00',
      });
      await remember(api, 'b', {
        content: 'note two',
        source: { name: 'obsidian', external_id: 'b.md' },
        occurred_at: '2023-05-06T00:00:00Z',
      });
      // a.md edited: its replaced version stays a Record; the source still holds two notes.
      await remember(api, 'b', {
        content: 'note one, edited',
        source: { name: 'obsidian', external_id: 'a.md' },
        occurred_at: '2023-09-01T00:00:00Z',
      });
      await remember(api, 'b', { content: 'typed by an agent', source: { name: 'mcp' } });
      await remember(api, 'b', { content: 'no source at all' });
      const list = assertShape(SourceList, (await api.get('/brains/b/sources')).body);
      assert.deepEqual(
        list.data.map((s) => [s.name, s.records, s.reconciled_records, s.items]),
        [
          ['mcp', 1, 0, 1],
          ['obsidian', 3, 3, 2],
        ],
      );
      const obsidian = list.data.find((s) => s.name === 'obsidian')!;
      assert.equal(obsidian.first_occurred_at, '2023-05-06T00:00:00.000Z');
      assert.equal(obsidian.last_occurred_at, '2024-01-02T09:00:00.000Z');
      // The Record written with no source is counted apart, not lost from the list.
      assert.equal(list.without_source?.records, 1, JSON.stringify(list));
      const other = await brainWithKey(server);
      await remember(other, 'b', { content: 'imported', source: { name: 'obsidian', external_id: 'c.md' } });
      await remember(other, 'b', { content: 'by a script, long ago', occurred_at: '2021-03-04T05:06:07Z' });
      await remember(other, 'b', { content: 'by a script, later', occurred_at: '2022-03-04T05:06:07Z' });
      assert.deepEqual(assertShape(SourceList, (await other.get('/brains/b/sources')).body).without_source, {
        records: 2,
        first_occurred_at: '2021-03-04T05:06:07.000Z',
        last_occurred_at: '2022-03-04T05:06:07.000Z',
      });
      const named = await brainWithKey(server);
      await remember(named, 'b', { content: 'typed by an agent', source: { name: 'mcp' } });
      assert.equal(assertShape(SourceList, (await named.get('/brains/b/sources')).body).without_source, null);
      assertError(await api.get('/brains/nope/sources'), 404, 'not_found', 'brain_not_found');
    });

    it('listRecords with has_source=false lists the Records written with no source name, and true the rest', async () => {
      const api = await brainWithKey(server);
      await remember(api, 'b', { content: 'typed by an agent', source: { name: 'mcp' } });
      await remember(api, 'b', { content: 'no source at all' });
      await remember(api, 'b', { content: 'an id but no name', source: { external_id: 'x-1' } });
      const texts = async (query: string) => {
        const r = await api.get(`/brains/b/records?${query}&limit=200`);
        assert.equal(r.status, 200, r.text);
        return assertShape(RecordPage, r.body)
          .data.map((rec) => ('text' in rec.content ? rec.content.text : ''))
          .sort();
      };
      assert.deepEqual(await texts('has_source=false'), ['an id but no name', 'no source at all']);
      assert.deepEqual(await texts('has_source=true'), ['typed by an agent']);
      assert.deepEqual(await texts('has_source=true&source=mcp'), ['typed by an agent']);
      // A name and "no name" at once would be an empty page that reads as "none written".
      assertError(
        await api.get('/brains/b/records?has_source=false&source=mcp'),
        400,
        'invalid_request',
        'conflicting_parameters',
      );
      assertError(
        await api.get('/brains/b/records?has_source=no'),
        400,
        'invalid_request',
        'invalid_request_body',
      );
    });

    it('forgetSource removes every Record of the source and their Memories; others stay; then source_not_found', async () => {
      const api = await brainWithKey(server);
      const kept = await remember(api, 'b', {
        content: 'The ferry leaves at noon',
        source: { name: 'mail' },
      });
      const gone = [
        await remember(api, 'b', {
          content: 'Saffron is kept in the tin',
          source: { name: 'my notes/2024', external_id: 'n1' },
        }),
        await remember(api, 'b', { content: 'Pepper sits on the shelf', source: { name: 'my notes/2024' } }),
      ];
      const memoryIds = [];
      for (const g of gone) memoryIds.push(...(await ready(api, 'b', g.record.id)).memory_ids);
      await ready(api, 'b', kept.record.id);
      assert.ok(memoryIds.length >= 2);
      assertError(
        await api.del(`/brains/b/records/${gone[0]!.record.id}`),
        403,
        'policy',
        'record_not_erasable',
      );

      const path = `/brains/b/sources/${encodeURIComponent('my notes/2024')}`;
      const r = await api.del(path);
      assert.equal(r.status, 200, r.text);
      const receipt = assertShape(DeletionReceipt, r.body);
      assert.deepEqual(receipt.target, { type: 'source', id: 'my notes/2024' });
      assert.equal(receipt.deleted.records, 2);
      assert.equal(receipt.deleted.memories, memoryIds.length);
      assert.equal(receipt.rederiving.memories, 0);
      assert.equal(r.headers.get('brain-watermark'), receipt.watermark);
      for (const g of gone)
        assertError(await api.get(`/brains/b/records/${g.record.id}`), 404, 'not_found', 'record_not_found');
      for (const id of memoryIds)
        assertError(await api.get(`/brains/b/memories/${id}`), 404, 'not_found', 'memory_not_found');
      assert.equal((await api.get(`/brains/b/records/${kept.record.id}`)).status, 200);
      const sources = assertShape(SourceList, (await api.get('/brains/b/sources')).body);
      assert.deepEqual(
        sources.data.map((s) => s.name),
        ['mail'],
      );
      const again = assertError(await api.del(path), 404, 'not_found', 'source_not_found');
      assert.match(String(again.message), /^source_name: /);
      assertError(await api.del('/brains/nope/sources/mail'), 404, 'not_found', 'brain_not_found');
      const changes = await api.get<{ data: { id: string }[] }>(
        `/brains/b/memories?since_watermark=${encodeURIComponent(kept.watermark)}`,
      );
      assert.equal(changes.status, 200, 'the receipt watermark is a valid boundary of this Brain');
    });

    it('importFiles reads a note and a chat export (auto), re-importing adds nothing, forgetSource removes them', async () => {
      const api = await brainWithKey(server);
      const first = await importFiles(api, 'b', { files: [note, chat], time_zone: 'Europe/Lisbon' });
      assert.deepEqual(
        first.parts.map((p) => [p.name, p.format, p.imported]),
        [
          ['Garden.md', 'markdown', 1],
          ['WhatsApp Chat with Bo.txt', 'whatsapp', 2],
        ],
      );
      assert.deepEqual([first.imported, first.unchanged, first.failed], [3, 0, 0]);
      assert.ok(first.watermark?.startsWith('wm_'));
      const notes = await recordsOf(api, 'b', 'markdown');
      assert.equal(notes.length, 1);
      assert.equal(notes[0]!.occurred_at.slice(0, 10), '2024-02-03');
      assert.equal(notes[0]!.erasable, false);
      const messages = await recordsOf(api, 'b', 'whatsapp');
      assert.equal(messages.length, 2);
      // Ana is the Brain's own person: without self_name an upload takes her for the user, as the CLI does.
      const multi = messages.find((m) => m.content.kind === 'message' && m.content.speaker === 'self')!;
      assert.ok(multi.content.kind === 'message' && multi.content.text.endsWith('in the blue folder'));
      assert.equal(multi.occurred_at, '2024-01-12T09:16:00.000Z'); // Lisbon is UTC in winter

      const second = await importFiles(api, 'b', { files: [note, chat], time_zone: 'Europe/Lisbon' });
      assert.deepEqual([second.imported, second.unchanged, second.skipped_count], [0, 3, 0]);
      assert.equal((await recordsOf(api, 'b', 'whatsapp')).length, 2);

      for (const m of messages) await ready(api, 'b', m.id);
      const receipt = assertShape(DeletionReceipt, (await api.del('/brains/b/sources/whatsapp')).body);
      assert.equal(receipt.deleted.records, 2);
      assert.deepEqual(await recordsOf(api, 'b', 'whatsapp'), []);
      assert.equal((await recordsOf(api, 'b', 'markdown')).length, 1);
      const third = await importFiles(api, 'b', { files: [chat], time_zone: 'Europe/Lisbon' });
      assert.equal(third.imported, 2, 'after removing the import, importing it again writes it again');
    });

    it('forgetSourceItems forgets every revision of the named items of one source, and a repeat nothing', async () => {
      const api = await brainWithKey(server);
      const write = (content: string, id: string) =>
        remember(api, 'b', { content, source: { name: 'obsidian', external_id: id } }).then(
          (r) => r.record.id,
        );
      const first = await write('The quince tree was planted by the shed.', 'Vault/garden.md');
      const revised = await write('The quince tree was moved to the gate.', 'Vault/garden.md');
      const kept = await write('Call the plumber on Monday.', 'Vault/todo.md');
      const other = (
        await remember(api, 'b', {
          content: 'A note of the same name from elsewhere.',
          source: { name: 'markdown', external_id: 'Vault/garden.md' },
        })
      ).record.id;
      for (const id of [first, revised, kept, other]) await ready(api, 'b', id);
      const forget = (ids: string[]) => api.post('/brains/b/sources/obsidian/forget', { external_ids: ids });
      const r = await forget(['Vault/garden.md', 'Vault/never-imported.md']);
      assert.equal(r.status, 200, r.text);
      const receipt = assertShape(DeletionReceipt, r.body);
      assert.deepEqual([receipt.target, receipt.deleted.records], [{ type: 'source', id: 'obsidian' }, 2]);
      assert.ok(receipt.watermark?.startsWith('wm_'));
      assert.deepEqual(
        (await recordsOf(api, 'b', 'obsidian')).map((x) => x.id),
        [kept],
      );
      for (const id of [first, revised])
        assertError(await api.get(`/brains/b/records/${id}`), 404, 'not_found', 'record_not_found');
      assert.equal(
        (await recordsOf(api, 'b', 'markdown')).length,
        1,
        "another source's item of that id stays",
      );
      const again = assertShape(DeletionReceipt, (await forget(['Vault/garden.md'])).body);
      assert.equal(again.deleted.records, 0);
      assertError(await forget([]), 400, 'invalid_request', 'invalid_request_body');
    });

    it('one WhatsApp chat is listed and forgotten alone: the others of the source stay, also one whose name begins the same', async () => {
      const api = await brainWithKey(server);
      const chatNamed = (name: string, lines: string[]) => ({
        name: `WhatsApp Chat with ${name}.txt`,
        content_base64: b64(lines.map((l) => `12/01/2024, 09:15 - ${l}\n`).join('')),
      });
      const result = await importFiles(api, 'b', {
        files: [
          chat,
          chatNamed('Bo: trip', ['Bo: The ferry leaves at nine']),
          chatNamed('Cy', ['Cy: Bring the maps', 'Ana: Will do', 'Cy: Thanks']),
          // Decomposed, as a name read on macOS may be: listed, and removed, by the name as typed.
          chatNamed('Joa\u0303o', ['Joao: Olá']),
        ],
        time_zone: 'UTC',
      });
      assert.equal(result.imported, 7, JSON.stringify(result));
      const chats = async (source = 'whatsapp') => {
        const r = await api.get(`/brains/b/sources/${source}/chats`);
        assert.equal(r.status, 200, r.text);
        return assertShape(SourceChatList, r.body).data.map((c) => [c.source, c.name, c.messages]);
      };
      assert.deepEqual(await chats(), [
        ['whatsapp', 'Bo', 2],
        ['whatsapp', 'Bo: trip', 1],
        ['whatsapp', 'Cy', 3],
        ['whatsapp', 'Jo\u00e3o', 1],
      ]);
      const typed = await api.del(`/brains/b/sources/whatsapp/chats/${encodeURIComponent('Jo\u00e3o')}`);
      assert.equal(assertShape(DeletionReceipt, typed.body).deleted.records, 1, typed.text);
      const r = await api.del(`/brains/b/sources/whatsapp/chats/${encodeURIComponent('Bo')}`);
      assert.equal(r.status, 200, r.text);
      const receipt = assertShape(DeletionReceipt, r.body);
      assert.deepEqual([receipt.target, receipt.deleted.records], [{ type: 'source', id: 'whatsapp' }, 2]);
      assert.deepEqual(await chats(), [
        ['whatsapp', 'Bo: trip', 1],
        ['whatsapp', 'Cy', 3],
      ]);
      assert.equal((await recordsOf(api, 'b', 'whatsapp')).length, 4);
      assertError(await api.del('/brains/b/sources/whatsapp/chats/Bo'), 404, 'not_found', 'source_not_found');
      // A source whose items are no chats has none to list or forget.
      await importFiles(api, 'b', { files: [note] });
      assert.deepEqual(await chats('markdown'), []);
      const none = await api.del('/brains/b/sources/markdown/chats/Garden');
      assertError(none, 404, 'not_found', 'source_not_found');
      assert.match((none.body as { message: string }).message, /keeps no chats apart/);
      // The whole source still goes at once.
      const all = assertShape(DeletionReceipt, (await api.del('/brains/b/sources/whatsapp')).body);
      assert.equal(all.deleted.records, 4);
    });

    it('importFiles reports what it cannot read and refuses unsafe names; its body may exceed 4 MiB', async () => {
      const api = await brainWithKey(server);
      const result = await importFiles(api, 'b', {
        files: [
          { name: 'picture.png', content_base64: Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64') },
          { name: 'empty.md', content_base64: b64('---\ntitle: x\n---\n') },
        ],
      });
      assert.equal(result.imported, 0);
      assert.equal(result.watermark, null);
      assert.deepEqual(
        result.skipped.map((s) => [s.item, s.reason]),
        [
          ['empty.md', 'empty note'],
          ['picture.png', 'cannot tell the format of this file; choose the format and import it again'],
        ],
      );
      for (const name of ['../escape.md', '/abs.md', 'a//b.md', 'a/./b.md']) {
        const e = assertError(
          await api.post('/brains/b/imports', { files: [{ name, content_base64: b64('x') }] }),
          400,
          'invalid_request',
          'invalid_request_body',
        );
        assert.match(String(e.message), /^files\[0\]\.name: /, name);
      }
      assertError(
        await api.post('/brains/b/imports', { files: [{ ...note, content_base64: '***' }] }),
        400,
        'invalid_request',
        'invalid_request_body',
      );
      assertError(
        await api.post('/brains/b/imports', { files: [note], time_zone: 'Mars/Olympus' }),
        400,
        'invalid_request',
        'invalid_request_body',
      );
      assertError(
        await api.post('/brains/nope/imports', { files: [note] }),
        404,
        'not_found',
        'brain_not_found',
      );
      // 5 MiB in one body: over the 4 MiB default limit, under the import route's own.
      const blob = Buffer.alloc(5 * 1024 * 1024, 7).toString('base64');
      const withBlob = await importFiles(api, 'b', {
        files: [note, { name: 'archive.bin', content_base64: blob }],
      });
      assert.deepEqual([withBlob.imported, withBlob.skipped_count], [1, 1]);
      const together = await importFiles(api, 'b', {
        format: 'markdown',
        files: [note, { name: 'sub/Other.md', content_base64: b64('# Other\n\nThe gate code is 4412.\n') }],
      });
      assert.deepEqual(
        together.parts.map((p) => [p.name, p.imported, p.unchanged]),
        [['(all files)', 1, 1]],
      );
    });
  });
}
