import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import * as z from 'zod';
import {
  DocumentContent,
  EventContent,
  FactContent,
  MessageContent,
  RecordReplica,
  ReplicaCorrection,
  type RecordCreate,
} from '../../engine/contract/index.ts';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { frameworkError } from '../../server/http/error-response.ts';
import { parseWith } from '../../server/http/validate.ts';
import { formatStatus } from '../../server/cli/commands/sync.ts';
import {
  forwardTo,
  anaSaying,
  hubAndTwoDevices,
  onLoopback,
  syncOk,
  writeTo,
  type HubAndDevices,
  type Node,
} from './sync-helpers.ts';

/**
 * The replication route of a hosted Mnemo of an earlier version, in front of a real hosted server: its
 * body is validated as that version did, by the server's own validator (parseWith) over the contract of
 * then, whose correction content did not have the fields named in `unknown` (strict objects: a field
 * not in the schema is refused, as `unknown field`), and refused with the server's own error body. What
 * it takes, and every other request, goes on to the hosted server. `unknown` empty: the hub upgraded.
 */
async function olderHub(target: () => string) {
  const state = {
    unknown: new Set<string>(['valid_from']),
    /** The message of each push it refused. */
    refusals: [] as string[],
    url: '',
    close: async () => {},
  };
  const older = () =>
    z.strictObject({
      records: z
        .array(
          RecordReplica.extend({
            content: z.discriminatedUnion('kind', [
              MessageContent,
              DocumentContent,
              EventContent,
              FactContent,
              ReplicaCorrection.omit(
                Object.fromEntries([...state.unknown].map((f) => [f, true])) as Partial<
                  Record<keyof ReplicaCorrection, true>
                >,
              ),
            ]),
          }),
        )
        .min(1, 'must hold at least one Record')
        .max(200),
    });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && /\/sync\/records$/.test(req.url ?? '') && state.unknown.size > 0) {
        try {
          parseWith(older(), JSON.parse(body.toString('utf8')));
        } catch (e) {
          if (!(e instanceof MnemoError)) throw e;
          const answer = frameworkError(e, '');
          state.refusals.push(e.message);
          res.writeHead(answer.status, answer.headers).end(answer.body);
          return;
        }
      }
      forwardTo(target(), req, res, body);
    });
  });
  Object.assign(state, await onLoopback(server));
  return state;
}

describe('a push to a hub older than the device, which refuses a newer field', () => {
  let nodes: HubAndDevices;
  let h: Node;
  let a: Node;
  let b: Node;
  let hub: Awaited<ReturnType<typeof olderHub>>;
  const start = '2099-09-15T00:00:00+01:00';
  const fact = (predicate: string, value: string, at: string): RecordCreate => ({
    content: { kind: 'fact', subject: 'Ana Lima', predicate, value },
    occurred_at: at,
  });
  /** A sync run of Ana on each device, what it took derived there. */
  const converge = async () => {
    for (const n of [a, b]) {
      await syncOk(n, 'ana');
      await n.server.engine.idle();
    }
    await h.server.engine.idle();
  };

  before(async () => {
    nodes = await hubAndTwoDevices();
    ({ h, a, b } = nodes);
    hub = await olderHub(() => h.server.url);
    for (const n of [a, b]) {
      await n.client.createBrain({ id: 'ana', self: { type: 'person', name: 'Ana Lima' } });
      await n.client.pairSync('ana', { remote: hub.url, remote_key: h.key });
    }
  });
  after(async () => {
    await hub?.close();
    await nodes?.stop();
  });

  it('sends a dated correction without its date, the Records after it too, and warns until the hub takes the field', async () => {
    await writeTo(a, 'ana', fact('studies at', 'the conservatory', '2024-09-01T00:00:00Z'));
    await writeTo(a, 'ana', fact('studies at', 'Nova', '2026-03-01T10:00:00Z'));
    await a.server.engine.idle();
    await converge();
    const [nova] = await anaSaying(a, 'studies at: Nova');
    const written = {
      kind: 'correction' as const,
      corrects: nova!.id,
      statement: 'Ana Lima studies at Nova',
      valid_from: start,
    };
    const fix = await writeTo(a, 'ana', { content: written });
    const next = await writeTo(a, 'ana', { content: 'A note written after the correction.' });

    const s = await syncOk(a, 'ana');
    // The hub refused the push as its version does, and took it again without the field.
    assert.match(hub.refusals.join('\n'), /^records\[\d+\]\.content\.valid_from: unknown field$/m);
    assert.equal(s.pending, 0);
    assert.equal(s.pushed, 4);
    const warned =
      /^1 Record went to the hosted Mnemo without a correction's valid_from, which it refused as an unknown field/;
    assert.match(s.warning ?? '', warned);
    const { valid_from: _date, ...undated } = written;
    assert.deepEqual((await h.client.getRecord('ana', fix.id)).content, undated);
    assert.equal((await h.client.getRecord('ana', next.id)).id, next.id);
    // The device keeps its Record whole, and the device that pulls from the hub gets it as the hub has it.
    assert.deepEqual((await a.client.getRecord('ana', fix.id)).content, written);
    await converge();
    assert.deepEqual((await b.client.getRecord('ana', fix.id)).content, undated);
    assert.equal((await b.client.getSync('ana')).warning, null);

    // Kept with the pairing, over runs with nothing to push and a restart: `mnemo sync status` shows it.
    await a.restart();
    assert.equal((await syncOk(a, 'ana')).pending, 0);
    const status = await a.client.getSync('ana');
    assert.match(status.warning ?? '', warned);
    assert.match(formatStatus(status), /^warning: 1 Record went to the hosted Mnemo without/m);

    // The hub upgraded: the next dated correction goes whole, and the warning ends.
    hub.unknown.clear();
    await writeTo(a, 'ana', fact('lives in', 'Porto', '2026-01-01T00:00:00Z'));
    await a.server.engine.idle();
    await converge();
    const [porto] = await anaSaying(a, 'lives in: Porto');
    const moved = {
      kind: 'correction' as const,
      corrects: porto!.id,
      statement: 'Ana Lima lives in Lisbon',
      valid_from: start,
    };
    const dated = await writeTo(a, 'ana', { content: moved });
    const upgraded = await syncOk(a, 'ana');
    assert.equal(upgraded.warning, null);
    assert.deepEqual((await h.client.getRecord('ana', dated.id)).content, moved);
  });

  it('does not leave out a field that is not newer: that refusal stops the push, as before', async () => {
    // A hub that does not know `reason` (no Mnemo was so old): the Record would lose what it says.
    hub.unknown = new Set(['reason']);
    await writeTo(a, 'ana', fact('works at', 'Acme', '2026-02-01T00:00:00Z'));
    await a.server.engine.idle();
    const [acme] = await anaSaying(a, 'works at: Acme');
    const why = await writeTo(a, 'ana', {
      content: {
        kind: 'correction',
        corrects: acme!.id,
        statement: 'Ana Lima works at Infobip',
        reason: 'typo',
      },
    });
    const s = await a.client.runSync('ana');
    assert.match(s.last_error ?? '', /invalid_request_body: records\[1\]\.content\.reason: unknown field/);
    assert.equal(s.pending, 2);
    await assert.rejects(h.client.getRecord('ana', why.id), { code: 'record_not_found' });
    hub.unknown.clear();
  });
});
