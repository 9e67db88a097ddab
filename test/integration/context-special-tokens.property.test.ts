import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { specialTokens } from '../../engine/core/shared/count-tokens.ts';
import { startServer, type RunningServer } from '../../server/start-server.ts';
import { tempDir } from './local-helpers.ts';
import { serveLocal } from './serve-local.ts';

const specials = await specialTokens();

// Exported chats with language models hold the tokenizer's special-token strings; random Unicode around
// them, in every field a Context header shows, must never make Context fail.
const unicode = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);
const hostile = fc
  .tuple(unicode, fc.constantFrom(...specials), unicode, fc.constantFrom('string', 'message', 'document'))
  .map(([before, special, after, kind]) => {
    const text = `${before} marmalade ${special}${after}`;
    if (kind === 'string') return { content: text, special };
    if (kind === 'message') return { content: { kind, text, speaker: `${special}${before}` }, special };
    return { content: { kind, text, title: `${after}${special}` }, special };
  });

async function neverFails(base: string, auth: Record<string, string>, idle: () => Promise<void>) {
  let n = 0;
  await fc.assert(
    fc.asyncProperty(hostile, async ({ content, special }) => {
      const brain = `b${++n}`;
      const brains = await fetch(`${base}/brains`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ id: brain }),
      });
      assert.equal(brains.status, 201);
      const wrote = await fetch(`${base}/brains/${brain}/records`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ content, source: { name: special } }),
      });
      assert.equal(wrote.status, 202, await wrote.text());
      await idle();
      for (const mode of ['fast', 'thorough']) {
        const res = await fetch(`${base}/brains/${brain}/context`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ query: `marmalade ${special}`, mode }),
        });
        const body = await res.text();
        assert.ok(res.status < 500, `${mode}: ${res.status} ${body}`);
      }
    }),
    { seed: 31, numRuns: 12 },
  );
}

describe('Context over Records holding tokenizer special tokens', () => {
  const root = tempDir();
  let local: Awaited<ReturnType<typeof serveLocal>>;
  let reference: RunningServer;
  before(async () => {
    local = await serveLocal(root);
    reference = await startServer({ engine: 'reference', port: 0, rateLimit: 0 });
  });
  after(async () => {
    await local.server.close();
    await reference.close();
  });

  it('never answers 5xx on the local engine, fast or thorough', () =>
    neverFails(local.server.url, local.auth, () => local.server.engine.idle()));

  it('never answers 5xx on the reference engine, fast or thorough', () =>
    neverFails(
      reference.url,
      { authorization: 'Bearer sk_test_tokens_secret1234', 'content-type': 'application/json' },
      () => reference.engine.idle(),
    ));
});
