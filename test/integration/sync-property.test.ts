import assert from 'node:assert/strict';
import fc from 'fast-check';
import { after, before, describe, it } from 'node:test';
import type { MnemoRecord, Visibility } from '../../engine/contract/index.ts';
import { redactedCopyId } from '../../engine/local/sync/replica-id.ts';
import { allRecords, recordingProxy, startNode, tempRoot, type Node } from './sync-helpers.ts';

/** Runs of the property; MNEMO_SYNC_PROPERTY_RUNS=50 for a longer search. */
const runs = Number(process.env.MNEMO_SYNC_PROPERTY_RUNS ?? 2);

type Step =
  | { op: 'write'; device: 0 | 1; visibility: Visibility }
  | { op: 'forget'; device: 0 | 1; pick: number }
  | { op: 'sync'; device: 0 | 1 }
  | { op: 'restart'; device: 0 | 1 | 2 };

const device = fc.constantFrom<0 | 1>(0, 1);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('write' as const),
      device,
      visibility: fc.constantFrom<Visibility>('shareable', 'redacted_summary', 'local_only'),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('forget' as const), device, pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('sync' as const), device }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('restart' as const),
      device: fc.constantFrom<0 | 1 | 2>(0, 1, 2),
    }),
  },
);

describe('sync under random writes, forgets, runs and restarts', () => {
  const { root, remove } = tempRoot();
  let nodes: [Node, Node, Node];
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  before(async () => {
    nodes = [
      await startNode(root, 'a'),
      await startNode(root, 'b'),
      await startNode(root, 'h', { deployment: 'hosted' }),
    ];
    proxy = await recordingProxy(() => nodes[2].server.url);
  });
  after(async () => {
    await proxy.close();
    await Promise.all(nodes.map((n) => n.stop().catch(() => {})));
    remove();
  });

  it('converges on the same shareable Records, without duplicates; no canary reaches the hub; tombstones hold', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 14 }), async (steps) => {
        round += 1;
        const brain = `p${round}`;
        const [a, b, h] = nodes;
        for (const d of [a, b]) {
          await d.client.createBrain({ id: brain, self: { type: 'person', name: 'Ana Lima' } });
          await d.client.pairSync(brain, { remote: proxy.url, remote_key: h.key });
        }
        const forgotten = new Set<string>();
        let n = 0;
        for (const s of steps) {
          const d = nodes[s.device]!;
          if (s.op === 'write') {
            n += 1;
            const text =
              s.visibility === 'local_only'
                ? `local canary LC${round}x${n} stays home`
                : s.visibility === 'redacted_summary'
                  ? `mail rc${round}x${n}@example.org about boat ${round}.${n}`
                  : `note ${round}.${n}: the regatta starts at noon`;
            await d.client.rememberRecord(brain, {
              content: { kind: 'message', speaker: 'Ana Lima', text },
              visibility: s.visibility,
            });
          } else if (s.op === 'forget') {
            const held = (await allRecords(d.client, brain)).filter((r) => r.erasable);
            if (held.length === 0) continue;
            const r = held[s.pick % held.length]!;
            await d.client.forgetRecord(brain, r.id);
            forgotten.add(r.id).add(redactedCopyId(r.id));
          } else if (s.op === 'sync') {
            await d.client.runSync(brain);
          } else {
            await d.restart();
          }
        }
        for (const d of [a, b, a, b]) {
          const status = await d.client.runSync(brain);
          assert.equal(status.last_error, null);
          assert.equal(status.pending, 0);
        }
        const onA = await allRecords(a.client, brain);
        const onB = await allRecords(b.client, brain);
        const onH = await allRecords(h.client, brain);
        const shareable = (rs: MnemoRecord[]) =>
          rs
            .filter((r) => r.visibility === 'shareable')
            .map((r) => r.id)
            .sort();
        assert.deepEqual(shareable(onA), shareable(onB));
        for (const rs of [onA, onB, onH]) {
          const texts = rs.map((r) => JSON.stringify(r.content));
          assert.equal(new Set(texts).size, texts.length, 'no duplicates');
          for (const r of rs) assert.ok(!forgotten.has(r.id), `forgotten ${r.id} is back`);
        }
        for (const r of onH) {
          const text = JSON.stringify(r);
          assert.ok(
            !text.includes('local canary') && !/rc\d+x\d+@/.test(text),
            `a canary on the hub: ${text}`,
          );
        }
        for (const body of proxy.bodies)
          assert.ok(!body.includes('local canary') && !/rc\d+x\d+@/.test(body));
      }),
      { numRuns: runs, endOnFailure: true, includeErrorInReport: true },
    );
  });
});
