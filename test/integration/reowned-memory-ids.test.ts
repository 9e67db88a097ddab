import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MemoryDetail, RecordCreate } from '../../engine/contract/index.ts';
import { eventually } from '../contract/harness.ts';
import { bothEngines } from './both-engines.ts';
import { tenant } from './local-helpers.ts';

/*
 * A Brain given its self after its Records were derived (a hub's, made by a device's first sync;
 * docs/sync.md, "The self") derives them again as hers. What a Memory says about its Record has not
 * changed, only whose it is: an agent that cited its id, a correction aimed at it, the app's open
 * Memory and a client's delta read still find it under that id.
 */

const engines = await bothEngines();

const lea = { type: 'person' as const, name: 'Lea Horvat' };
const message = (speaker: string, text: string, at: string): RecordCreate => ({
  content: { kind: 'message', speaker, text, thread: 'chat' },
  occurred_at: at,
});

for (const [name, opened] of engines)
  describe(`${name}: a Memory re-owned when the Brain gets its self keeps its id`, () => {
    it('her statements, her slots and their history keep their ids; the delta read sees them change', async (t) => {
      const engine = await opened();
      t.after(() => engine.close());
      const brain = `reown-${name.length}`;
      await engine.createBrain(tenant, { id: brain });
      const said = async (speaker: string, text: string, at: string) => {
        const r = await engine.rememberRecord(tenant, brain, message(speaker, text, at), {});
        await engine.idle();
        const rec = await engine.getRecord(tenant, brain, r.record.id);
        assert.equal(rec.memory_ids.length, 1, `${text}: ${JSON.stringify(rec.memory_ids)}`);
        return { id: rec.memory_ids[0]!, watermark: r.watermark };
      };
      const get = (id: string): Promise<MemoryDetail> => engine.getMemory(tenant, brain, id);
      const sailing = await said('Lea Horvat', 'I love sailing.', '2025-01-01T10:00:00Z');
      const porto = await said('Lea Horvat', 'I live in Porto.', '2025-01-02T10:00:00Z');
      const hazelnuts = await said('user', 'I am allergic to hazelnuts.', '2025-01-03T10:00:00Z');
      const infobip = await said('user', 'I work at Infobip.', '2025-01-04T10:00:00Z');
      const braga = await said('Lea Horvat', 'I moved to Braga.', '2025-02-01T10:00:00Z');
      // Said again: one Memory, cited by both.
      const again = await said('user', 'I am allergic to hazelnuts.', '2025-02-02T10:00:00Z');
      assert.equal(again.id, hazelnuts.id);
      const split = await said('Marko', 'I live in Split.', '2025-02-03T10:00:00Z');
      assert.deepEqual(
        [(await get(porto.id)).owner, (await get(hazelnuts.id)).owner],
        [{ state: 'other', entity: 'Lea Horvat' }, { state: 'unresolved' }],
      );

      // Where a client's delta read stands once everything written was derived.
      const before = (
        await engine.listMemories(tenant, brain, { limit: 100, since_watermark: split.watermark })
      ).watermark!;
      await engine.updateBrain(tenant, brain, { self: lea });
      const ids = [sailing, porto, hazelnuts, infobip, braga].map((m) => m.id);
      await eventually('her Memories re-owned', async () => {
        await engine.idle();
        const owners = await Promise.all(ids.map(async (id) => (await get(id).catch(() => null))?.owner));
        return owners.every((o) => o?.state === 'self') ? true : null;
      });

      const seen = async (id: string) => {
        const m = await get(id);
        return {
          statement: m.statement,
          subject: m.subject,
          owner: m.owner,
          status: m.status,
          version: m.version,
        };
      };
      const hers = { state: 'self', entity: 'Lea Horvat' };
      assert.deepEqual(await seen(sailing.id), {
        statement: 'I love sailing.',
        subject: 'Lea Horvat',
        owner: hers,
        status: 'active',
        version: 1,
      });
      assert.deepEqual(await seen(hazelnuts.id), {
        statement: 'I am allergic to hazelnuts.',
        subject: 'Lea Horvat',
        owner: hers,
        status: 'active',
        version: 1,
      });
      assert.equal((await get(hazelnuts.id)).citations.length, 2);
      // The agent's user said where she works: her employer now, read as her slot, under the same id.
      const job = await get(infobip.id);
      assert.deepEqual(
        [job.statement, job.owner, job.status, job.slot !== null],
        ['Lea Horvat works at Infobip', hers, 'active', true],
      );
      // Her home's history as it was: Porto, then Braga, each under its id.
      const home = await get(braga.id);
      assert.deepEqual(
        [home.statement, home.status, home.version, home.owner],
        ['Lea Horvat lives in Braga', 'active', 2, hers],
      );
      assert.deepEqual(
        home.revisions.map((r) => [r.id, r.status]),
        [
          [porto.id, 'superseded'],
          [braga.id, 'active'],
        ],
      );
      assert.equal((await get(porto.id)).owner.state, 'self');
      assert.deepEqual((await get(split.id)).owner, { state: 'other', entity: 'Marko' });

      // Her Profile holds them, and nothing else of hers was written beside them.
      const profile = await engine.getProfile(tenant, brain, { limit: 50 });
      assert.deepEqual(profile.lines.map((l) => l.statement).sort(), [
        'I am allergic to hazelnuts.',
        'I love sailing.',
        'Lea Horvat lives in Braga',
        'Lea Horvat works at Infobip',
      ]);
      const all = await engine.listMemories(tenant, brain, { limit: 100 });
      assert.deepEqual(
        all.data.map((m) => m.id).sort(),
        [sailing, hazelnuts, infobip, braga, split].map((m) => m.id).sort(),
      );

      // Found by her name, as any Memory written hers: the agent's user's too.
      const byName = await engine.listMemories(tenant, brain, { limit: 100, owner: 'lea horvat' });
      assert.deepEqual(
        byName.data.map((m) => m.id).sort(),
        [sailing, hazelnuts, infobip, braga].map((m) => m.id).sort(),
      );

      // A client's delta read from before the change: every re-owned Memory changed under its id,
      // none removed.
      const delta = await engine.listMemories(tenant, brain, { limit: 100, since_watermark: before });
      assert.deepEqual(delta.removed ?? [], []);
      assert.deepEqual(delta.data.map((m) => m.id).sort(), [...ids].sort());

      // A correction aimed at an id held from before the change reaches the Memory.
      const fixed = await engine.rememberRecord(
        tenant,
        brain,
        { content: { kind: 'correction', corrects: infobip.id, statement: 'Lea Horvat works at Rimac' } },
        {},
      );
      await engine.idle();
      const corrected = await get(infobip.id);
      assert.equal(corrected.status, 'superseded');
      assert.equal(corrected.revisions.at(-1)?.statement, 'Lea Horvat works at Rimac');
      assert.ok(fixed.record.id);
    });

    it('a correction made before the self is set stays as the person made it; the rest is hers under its ids', async (t) => {
      const engine = await opened();
      t.after(() => engine.close());
      const brain = `corrected-${name.length}`;
      await engine.createBrain(tenant, { id: brain });
      const said = async (text: string, at: string) => {
        const r = await engine.rememberRecord(tenant, brain, message('user', text, at), {});
        await engine.idle();
        return (await engine.getRecord(tenant, brain, r.record.id)).memory_ids[0]!;
      };
      const jazz = await said('I like jazz.', '2025-01-01T10:00:00Z');
      const tea = await said('I drink green tea.', '2025-01-02T10:00:00Z');
      await engine.rememberRecord(
        tenant,
        brain,
        { content: { kind: 'correction', corrects: jazz, statement: 'I like blues.' } },
        {},
      );
      await engine.idle();
      await engine.updateBrain(tenant, brain, { self: lea });
      await eventually('her tea re-owned', async () => {
        await engine.idle();
        const m = await engine.getMemory(tenant, brain, tea).catch(() => null);
        return m?.owner.state === 'self' ? true : null;
      });
      // The person's word is final: the Record she corrected is left as she left it (docs/sync.md).
      const m = await engine.getMemory(tenant, brain, jazz);
      assert.deepEqual(
        m.revisions.map((v) => [v.statement, v.status]),
        [
          ['I like jazz.', 'superseded'],
          ['I like blues.', 'active'],
        ],
      );
      assert.equal(m.owner.state, 'unresolved');
    });

    it('an address that refines her city once she is known keeps its id, citing both Records', async (t) => {
      const engine = await opened();
      t.after(() => engine.close());
      const brain = `reown-home-${name.length}`;
      await engine.createBrain(tenant, { id: brain });
      const said = async (text: string, at: string) => {
        const r = await engine.rememberRecord(tenant, brain, message('user', text, at), {});
        await engine.idle();
        return engine.getRecord(tenant, brain, r.record.id);
      };
      const city = await said('I live in Zagreb.', '2025-03-01T10:00:00Z');
      const street = await said('My address is Vlaška 17.', '2025-03-02T10:00:00Z');
      // Nobody's words yet: the address is a statement of no slot.
      const home = street.memory_ids[0]!;
      assert.equal((await engine.getMemory(tenant, brain, home)).statement, 'My address is Vlaška 17.');

      await engine.updateBrain(tenant, brain, { self: lea });
      await eventually('the home re-owned', async () => {
        await engine.idle();
        const m = await engine.getMemory(tenant, brain, home).catch(() => null);
        return m?.owner.state === 'self' ? m : null;
      });
      const now = await engine.getMemory(tenant, brain, home);
      assert.match(now.statement, /^Lea Horvat lives at Vlaška 17, Zagreb/u);
      assert.equal(now.status, 'active');
      assert.deepEqual(now.citations.map((c) => c.record_id).sort(), [city.id, street.id].sort());
      assert.equal((await engine.getMemory(tenant, brain, city.memory_ids[0]!)).owner.state, 'self');
    });
  });
