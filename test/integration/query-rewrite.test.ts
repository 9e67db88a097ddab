import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ContextReady, Trace } from '../../engine/contract/index.ts';
import type { RunningServer } from '../../server/start-server.ts';
import type { Client } from '../contract/harness.ts';
import { assertShape } from '../contract/harness.ts';
import { brainWithKey, ready, remember } from '../contract/suite-records.ts';
import { serveLocal } from './serve-local.ts';
import {
  startChatCompletionsStandIn,
  type ChatCompletionsStandIn,
} from '../support/chat-completions-stand-in.ts';

// No semantic lane: what finds a Record here is a word it shares with the question or the rewrite, so a
// Record sharing none with the question is found by the rewrite or not at all.
process.env.MNEMO_EMBEDDER = 'none';
const secret = 'sk-rewrite-test-secret';
process.env.MNEMO_REWRITE_KEY = secret;

const root = mkdtempSync(join(tmpdir(), 'mnemo-query-rewrite-'));
let n = 0;
async function server(o: { rewriteUrl?: string; rewriteModel?: string }, log?: (l: string) => void) {
  n += 1;
  const dir = join(root, `s${n}`);
  mkdirSync(dir);
  const more = { thoroughSyncMs: 0, ...o };
  return (await serveLocal(dir, { more, ...(log ? { log } : {}) })).server;
}

let llm: ChatCompletionsStandIn;
let withModel: RunningServer;
let without: RunningServer;
let api: Client;
let bare: Client;
let volvo = '';
const logged: string[] = [];

async function seed(c: Client): Promise<string> {
  let id = '';
  for (const content of [
    'My vehicle is a blue Volvo.',
    'We had pasta for dinner on Friday.',
    'The dentist appointment moved to Tuesday.',
  ]) {
    const { record } = await remember(c, 'b', { content });
    await ready(c, 'b', record.id);
    if (content.includes('Volvo')) id = record.id;
  }
  return id;
}

async function ask(c: Client, body: Record<string, unknown>) {
  const r = await c.post('/brains/b/context', body);
  assert.equal(r.status, 200, r.text);
  const ctx = assertShape(ContextReady, r.body);
  const trace = assertShape(Trace, (await c.get(`/brains/b/traces/${ctx.id}`)).body);
  return { ctx, trace, lanes: trace.lanes.map((l) => l.name) };
}

before(async () => {
  llm = await startChatCompletionsStandIn();
  withModel = await server({ rewriteUrl: llm.url, rewriteModel: 'tiny-model' }, (l) => logged.push(l));
  without = await server({});
  api = await brainWithKey(withModel);
  bare = await brainWithKey(without);
  volvo = await seed(api);
  await seed(bare);
});

after(async () => {
  await withModel?.close();
  await without?.close();
  await llm?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the generative query rewrite of thorough Contexts', () => {
  test('finds a Record that shares a word with the rewrite and none with the question, at one generative call', async () => {
    llm.behave({ kind: 'phrasings', lines: ['vehicle', 'automobile make and model'] });
    const before = llm.requests.length;
    const { ctx, trace, lanes } = await ask(api, { query: 'What car do I drive?', mode: 'thorough' });
    assert.equal(llm.requests.length, before + 1, 'one call to the model');
    assert.ok(
      ctx.citations.some((c) => c.record_id === volvo),
      `the Volvo Record is cited: ${JSON.stringify(ctx.citations)} ${lanes.join(' | ')}`,
    );
    const rewrite = trace.lanes.find((l) => l.name === 'rewrite');
    assert.ok(rewrite, lanes.join(' | '));
    assert.deepEqual(
      rewrite.candidates.map((c) => [c.record_id, c.reason]),
      [[volvo, 'shared words: vehicle']],
    );
    assert.ok(trace.fusion.results.find((r) => r.record_id === volvo)?.lanes.includes('rewrite'));
    assert.equal(ctx.cost.generative_calls, 1);
    assert.equal(ctx.cost.model_calls_total, 1 + ctx.cost.embedding_calls);

    // The real request shape, the key from MNEMO_REWRITE_KEY, the question sent as a JSON value.
    const sent = llm.requests.at(-1)!;
    assert.equal(sent.path, '/v1/chat/completions');
    assert.equal(sent.authorization, `Bearer ${secret}`);
    assert.equal(sent.body.model, 'tiny-model');
    const user = sent.body.messages?.find((m) => m.role === 'user');
    assert.deepEqual(JSON.parse(user?.content ?? 'null'), { question: 'What car do I drive?' });
    assert.ok(sent.body.messages?.some((m) => m.role === 'system' && m.content.includes('data only')));
    assert.ok(!logged.join('\n').includes(secret), 'the key is never logged');
    assert.ok(logged.some((l) => l.includes('query rewrite in thorough Contexts: model tiny-model')));
  });

  test('fast mode never calls the model and makes no generative call', async () => {
    llm.behave({ kind: 'phrasings', lines: ['vehicle'] });
    const before = llm.requests.length;
    const { ctx, lanes } = await ask(api, { query: 'What car do I drive?', mode: 'fast' });
    assert.equal(llm.requests.length, before);
    assert.equal(ctx.cost.generative_calls, 0);
    assert.ok(!lanes.some((l) => l.startsWith('rewrite')), lanes.join(' | '));
    assert.ok(!ctx.citations.some((c) => c.record_id === volvo), 'fast finds no shared word');
  });

  test('an endpoint slower than budget.ms: the lane is listed as not run, and the Context still answers', async () => {
    llm.behave({ kind: 'slow', ms: 3000, lines: ['vehicle'] });
    const started = Date.now();
    const { ctx, lanes } = await ask(api, {
      query: 'What car do I drive these days?',
      mode: 'thorough',
      budget: { ms: 400 },
    });
    assert.ok(Date.now() - started < 2500, 'the Context did not wait for the model');
    assert.equal(ctx.status, 'ready');
    assert.ok(
      lanes.some((l) =>
        /^rewrite \(not run: the generative model \(openai-compatible:tiny-model\) did not answer within \d+ ms\)$/u.test(
          l,
        ),
      ),
      lanes.join(' | '),
    );
    assert.ok(!lanes.includes('rewrite'));
    assert.equal(ctx.cost.generative_calls, 1, 'the call was made, and is counted');
  });

  test('an answer without JSON lines: not run, with the reason, and nothing of it searched', async () => {
    llm.behave({ kind: 'content', content: 'Sure! You could search for vehicle, automobile or Volvo.' });
    const { ctx, lanes } = await ask(api, { query: 'Which car is mine?', mode: 'thorough' });
    assert.ok(
      lanes.includes(
        "rewrite (not run: the query rewrite failed: the generative model's answer held no search phrasings)",
      ),
      lanes.join(' | '),
    );
    assert.ok(!ctx.citations.some((c) => c.record_id === volvo));
  });

  test('an endpoint that errs: not run, with its status', async () => {
    llm.behave({ kind: 'status', status: 500 });
    const { lanes } = await ask(api, { query: 'Which car do I own?', mode: 'thorough' });
    assert.ok(
      lanes.includes(
        "rewrite (not run: the query rewrite failed: the generative model's endpoint answered HTTP 500)",
      ),
      lanes.join(' | '),
    );
  });

  test('an endpoint that redirects: the question is sent once, never where the redirect points', async () => {
    llm.behave({ kind: 'redirect' });
    const before = llm.requests.length;
    const { lanes } = await ask(api, { query: 'When did I see Dr Jones?', mode: 'thorough' });
    assert.deepEqual(
      llm.requests.slice(before).map((r) => r.path),
      ['/v1/chat/completions'],
      'nothing went to /elsewhere',
    );
    const port = new URL(llm.url).port;
    assert.ok(
      lanes.includes(
        "rewrite (not run: the query rewrite failed: the generative model's endpoint answered HTTP 307, a redirect to " +
          `http://127.0.0.1:${port}/elsewhere; the question goes to --rewrite-url only and follows no redirect: ` +
          'if the model moved, give --rewrite-url its new address)',
      ),
      lanes.join(' | '),
    );
  });

  test('an endless answer is read no further than 64 KiB', async () => {
    llm.behave({ kind: 'flood', bytes: 50 * 1024 * 1024 });
    const { lanes } = await ask(api, { query: 'Which car do I have?', mode: 'thorough' });
    assert.ok(
      lanes.includes(
        "rewrite (not run: the query rewrite failed: the generative model's endpoint: POST /v1/chat/completions: " +
          'the answer is larger than 65536 bytes; it was not read further)',
      ),
      lanes.join(' | '),
    );
  });

  test('plain http beyond this machine is refused before anything starts', async () => {
    await assert.rejects(server({ rewriteUrl: 'http://llm.example.org/v1', rewriteModel: 'm' }), {
      message:
        '--rewrite-url http://llm.example.org/v1: must be https: plain http is for a loopback host only (127.0.0.0/8, ::1, localhost)',
    });
  });

  test('without a configured model, thorough Traces say the rewrite did not run, fast ones say nothing', async () => {
    const thorough = await ask(bare, { query: 'What car do I drive?', mode: 'thorough' });
    assert.ok(
      thorough.lanes.includes('rewrite (not run: no generative model configured)'),
      thorough.lanes.join(' | '),
    );
    assert.equal(thorough.ctx.cost.generative_calls, 0);
    const fast = await ask(bare, { query: 'What car do I drive?', mode: 'fast' });
    assert.ok(!fast.lanes.some((l) => l.startsWith('rewrite')), fast.lanes.join(' | '));
  });
});
