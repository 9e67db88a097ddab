import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { postgresStorageOver } from '../../engine/adapters/postgres/storage.ts';
import { pgliteDatabases } from '../../engine/adapters/postgres/testing/pglite.ts';
import type { ContextReady } from '../../engine/contract/index.ts';
import { openPostgresEngine } from '../../engine/index.ts';
import { tempDir, tenant } from './local-helpers.ts';

// Called at the file's top level: its databases close after the file.
const database = await pgliteDatabases({ vector: true, migrated: true });

describe('the hosted engine: Contexts without filler', () => {
  it('cites a greeting before a statement that answers alone no more than the local engine does', async () => {
    const { engine } = await openPostgresEngine(
      { open: async () => postgresStorageOver(await database()) },
      { embedder: { provider: 'glove-sif', dataDir: tempDir() } },
    );
    try {
      await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
      const say = (speaker: string, text: string, thread: string, at: string) =>
        engine.rememberRecord(
          tenant,
          'b',
          { content: { kind: 'message', text, speaker, thread }, occurred_at: at, source: { name: 'chat' } },
          {},
        );
      await say('assistant', 'Hello! How can I help you today?', 'colour', '2024-03-01T10:00:00Z');
      await say('user', 'My favourite colour is green.', 'colour', '2024-03-01T10:00:05Z');
      await say('assistant', 'Hello! How can I help you today?', 'job', '2024-03-02T10:00:00Z');
      await say('user', 'I work as a nurse at Hospital Santa Maria.', 'job', '2024-03-02T10:00:05Z');
      await engine.idle();
      const cited = async (query: string) =>
        (
          (await engine.createContext(tenant, 'b', { query }, { requestId: 'req_test' })) as ContextReady
        ).citations.map((c) => c.quote);
      assert.deepEqual(await cited('What is my favourite colour?'), ['My favourite colour is green.']);
      assert.deepEqual(await cited('Where do I do my job?'), ['I work as a nurse at Hospital Santa Maria.']);
    } finally {
      await engine.close();
    }
  });
});
