import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ContextReady, RecordCreate } from '../contract/index.ts';
import type { MnemoError } from '../errors/mnemo-error.ts';
import { createLocalEngine, type LocalEngineOptions } from '../local/index.ts';
import type { TraceStore } from '../ports/trace-store.ts';
import type { Lane } from '../retrieve/lane.ts';
import type { Engine, Tenant } from '../types.ts';
import { createTraceBuffer } from './trace-buffer.ts';

const tenant: Tenant = { project: 'acme', env: 'test' };
const opts = { requestId: 'req_test' };

async function engineWith(extra: Partial<LocalEngineOptions>): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-trace-forget-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const engine = await createLocalEngine({
    dataDir: dir,
    dbKey: 'trace-forget-key',
    embedder: null,
    ...extra,
  });
  after(() => engine.close());
  await engine.createBrain(tenant, { id: 'b' });
  return engine;
}

async function write(engine: Engine, texts: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const text of texts) {
    const body: RecordCreate = { content: { kind: 'message', text, speaker: 'Ana' } };
    ids.push((await engine.rememberRecord(tenant, 'b', body, {})).record.id);
  }
  await engine.idle();
  return ids;
}

const isNotFound = (e: MnemoError) => e.code === 'trace_not_found';

/** A lane that, when `during` is set, runs it in the middle of the next assembly and finds nothing. */
function laneRunning(): { lane: Lane; during: (() => Promise<unknown>) | null } {
  const hook: { lane: Lane; during: (() => Promise<unknown>) | null } = {
    lane: {
      name: 'meanwhile',
      search: async () => {
        const during = hook.during;
        hook.during = null;
        if (during) await during();
        return [];
      },
    },
    during: null,
  };
  return hook;
}

describe('a forget while a Context is assembled', () => {
  it('leaves no Trace naming the forgotten Record; the Context itself is answered', async () => {
    const hook = laneRunning();
    const engine = await engineWith({ lanes: [hook.lane] });
    const [key, pot] = await write(engine, [
      'The spare key is under the blue pot.',
      'The blue pot stands by the door.',
    ]);

    hook.during = () => engine.forgetRecord(tenant, 'b', key!);
    // The lanes before this one found the Record, so the Trace would name it among their candidates.
    const hit = await engine.createContext(tenant, 'b', { query: 'spare key' }, opts);
    assert.equal(hit.status, 'ready');
    await assert.rejects(engine.getTrace(tenant, 'b', hit.id), isNotFound);

    // A forget of a Record the Trace does not name leaves the Trace in place.
    const [other] = await write(engine, ['Porto has a sailing club.']);
    hook.during = () => engine.forgetRecord(tenant, 'b', other!);
    const kept = (await engine.createContext(tenant, 'b', { query: 'blue pot' }, opts)) as ContextReady;
    assert.ok(kept.citations.some((c) => c.record_id === pot));
    assert.equal((await engine.getTrace(tenant, 'b', kept.id)).status, 'ready');
  });

  it('cannot land between the check for forgets and the add of the Trace', async () => {
    // The real store in memory, watched: when the assembly reads forgets() for its final check, a
    // forget is started in the very next microtask. Whatever the assembly does before storing its
    // Trace, that forget must come after the store, and then it drops the Trace itself.
    const real = createTraceBuffer(500);
    let startForget: (() => Promise<unknown>) | null = null;
    let forgetting: Promise<unknown> = Promise.resolve();
    let checkedAt: { passed: boolean } | null = null;
    let gap = false;
    const watched: TraceStore = {
      ...real,
      forgets() {
        const n = real.forgets();
        const start = startForget;
        if (start) {
          startForget = null;
          const at = { passed: false };
          checkedAt = at;
          queueMicrotask(() => {
            at.passed = true;
            forgetting = start();
          });
        }
        return n;
      },
      add(brainUid, trace) {
        if (checkedAt?.passed) gap = true;
        return real.add(brainUid, trace);
      },
      remove(brainUid, id) {
        if (checkedAt?.passed) gap = true;
        return real.remove(brainUid, id);
      },
    };
    const hook = laneRunning();
    const engine = await engineWith({ lanes: [hook.lane], traceStore: watched });
    const [key] = await write(engine, ['The spare key is under the blue pot.']);

    // Armed from the lane, so the read at the start of assembly is past.
    hook.during = async () => {
      startForget = () => engine.forgetRecord(tenant, 'b', key!);
    };
    const hit = (await engine.createContext(tenant, 'b', { query: 'spare key' }, opts)) as ContextReady;
    await forgetting;
    assert.ok(checkedAt, 'the assembly checked for forgets after its lanes ran');
    assert.ok(hit.citations.some((c) => c.record_id === key));
    assert.equal(gap, false, 'the Trace was stored in the same turn as the check');
    await assert.rejects(engine.getTrace(tenant, 'b', hit.id), isNotFound);
  });
});
