import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { MnemoApiError } from '../../server/client/index.ts';
import {
  afterCheck,
  heard,
  hubAnswer,
  onLoopback,
  recordingProxy,
  startNode,
  tempRoot,
  type Answer,
  type Node,
} from './sync-helpers.ts';

/**
 * A remote on `host` answering as `answer` says: on 127.0.0.2 (this machine, plain http allowed) a
 * device's requests go over the global fetch, which follows redirects unless told not to; on 127.0.0.1
 * over node:http.
 */
const remoteOn = (host: string, answer: Answer) => onLoopback(createServer(heard(answer)), host);

/** Answers with a `status` redirect to the same path and query under `to` (a /v1 base). */
const movedTo =
  (to: () => string, status: number): Answer =>
  (seen, res) => {
    const query = seen.query.size > 0 ? `?${seen.query.toString()}` : '';
    res.writeHead(status, { location: to().replace(/\/v1$/, '') + seen.path + query }).end();
  };

describe('a sync remote that redirects elsewhere', () => {
  const { root, remove } = tempRoot('mnemo-sync-redirect-');
  let d: Node;
  let h: Node;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  before(async () => {
    [d, h] = await Promise.all([startNode(root, 'd'), startNode(root, 'h', { deployment: 'hosted' })]);
    // What reaches the hosted Mnemo the redirects point to, byte for byte.
    proxy = await recordingProxy(() => h.server.url);
    await d.client.createBrain({ id: 'ana' });
  });
  after(async () => {
    await Promise.all([d.stop(), h.stop(), proxy.close()]);
    remove();
  });

  for (const host of ['127.0.0.2', '127.0.0.1']) {
    it(`is refused at pairing as unavailable, naming where it points, and nothing goes there (${host})`, async () => {
      const old = await remoteOn(
        host,
        movedTo(() => proxy.url, 308),
      );
      proxy.bodies.length = 0;
      try {
        const e = await d.client.pairSync('ana', { remote: old.url, remote_key: h.key }).then(
          () => assert.fail('paired'),
          (err: unknown) => err,
        );
        assert.ok(e instanceof MnemoApiError, String(e));
        assert.deepEqual([e.status, e.code], [502, 'sync_remote_unavailable'], e.message);
        assert.equal(
          e.message,
          `remote: ${old.url} answered GET /v1/brains/ana with a redirect (HTTP 308) to ` +
            `${proxy.url}/brains/ana; sync follows no redirect (the key and Records go to the address ` +
            `paired, and only there): if the hosted Mnemo moved there, pair with ${proxy.url}; ` +
            'nothing was paired or changed',
        );
        assert.deepEqual(proxy.bodies, [], 'no request reached where it points');
        assert.equal((await d.client.getSync('ana')).paired, false);
      } finally {
        await old.close();
      }
    });
  }

  it('fails a run, naming where it points, and sends no Record there', async () => {
    // Works while the device checks it, then sends every push to another origin (307 keeps the body).
    const pushes = movedTo(() => proxy.url, 307);
    const old = await remoteOn(
      '127.0.0.2',
      afterCheck((seen, res) =>
        seen.path.endsWith('/sync/records') ? pushes(seen, res) : hubAnswer(seen, res),
      ),
    );
    try {
      await d.client.pairSync('ana', { remote: old.url, remote_key: h.key });
      await d.client.rememberRecord('ana', { content: 'The boathouse code is on the blue card.' });
      proxy.bodies.length = 0;
      const status = await d.client.runSync('ana');
      assert.equal(
        status.last_error,
        `${old.url}: remote_redirected: POST /v1/brains/ana/sync/records: the remote answered 307 and ` +
          `points to ${proxy.url}/brains/ana/sync/records; requests to a sync remote follow no redirect; ` +
          `if the hosted Mnemo moved there, pair again with ${proxy.url}`,
      );
      assert.equal(status.pending, 1, 'the Record stays to push');
      assert.deepEqual(proxy.bodies, [], 'no Record went where it points');
      await d.client.unpairSync('ana');
    } finally {
      await old.close();
    }
  });
});
