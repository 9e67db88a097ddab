import type { SyncPairing, SyncStatus } from '../../engine/contract/index.ts';
import { errorMessage } from '../../engine/index.ts';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import type { Engine, PairingStatus, Tenant } from '../../engine/types.ts';
import { checkRemote } from './check-remote.ts';
import { budgetStatus, bytesText, pausedWarning } from './pull-budget.ts';
import { oneLine, runLimits, runSync, type RunOutcome, type RunSyncOptions } from './run-sync.ts';

export interface SyncServiceOptions {
  engine: Engine;
  /**
   * After a write to a paired Brain, the push waits this long for more (default 2 s), but never past
   * the run already planned: writes that do not pause still sync every intervalMs.
   */
  debounceMs?: number;
  /** Every paired Brain syncs this often (default 60 s). */
  intervalMs?: number;
  /** Longest wait between runs while the remote fails (default 15 min); the wait doubles from intervalMs. */
  maxBackoffMs?: number;
  fetch?: RunSyncOptions['fetch'];
  /** Bounds of a run's requests and pull (default run-sync's runLimits); tests shorten them. */
  limits?: RunSyncOptions['limits'];
  /** Longest wait for each request of the check of a remote before pairing (default 5 s). */
  checkTimeoutMs?: number;
  log?: (line: string) => void;
}

interface BrainLoop {
  t: Tenant;
  brainId: string;
  timer: NodeJS.Timeout | null;
  /** When the timer fires (a write may set it before `due`). */
  timerAt: number;
  /** When the run planned last (not by a write) is due: a write may bring it sooner, never later. */
  due: number;
  running: Promise<SyncStatus> | null;
  again: boolean;
  failures: number;
  /** Cuts this loop's run in flight: on close, and when its Brain is paired again or unpaired. */
  abort: AbortController;
}

/**
 * Keeps a server's paired Brains in sync while it runs: soon after each write (debounced), every
 * interval, and on demand; while the remote fails, the next run waits twice as long each time (up to
 * maxBackoffMs). A run that reached its deadline after keeping some progress is no failure: the next
 * one follows after debounceMs. One run per Brain at a time. close() stops the timers and waits for a
 * run in flight.
 */
export function createSyncService(o: SyncServiceOptions) {
  // A hosted server pairs nothing: its tenants must not make it send requests, with a key of their
  // choice, to an address of their choice. Pairings a hosted store may hold never run.
  const sync = o.engine.info.deployment === 'hosted' ? undefined : o.engine.sync;
  const debounceMs = o.debounceMs ?? 2_000;
  const intervalMs = o.intervalMs ?? 60_000;
  const maxBackoffMs = o.maxBackoffMs ?? 15 * 60_000;
  const log = o.log ?? (() => {});
  const limits = { ...runLimits, ...o.limits };
  const loops = new Map<string, BrainLoop>();
  /** Loops stopped while a run was in flight: close() waits for those runs too. */
  const ending = new Set<BrainLoop>();
  let closed = false;
  const keyOf = (t: Tenant, brainId: string) => JSON.stringify([t.project, t.env, brainId]);
  /**
   * The last pair or unpair of each Brain: the next waits for it. A pairing's check takes up to ~15 s
   * before it stores anything; in turns, the one sent last is the one kept.
   */
  const turns = new Map<string, Promise<unknown>>();
  const inTurn = <T>(t: Tenant, brainId: string, step: () => Promise<T>): Promise<T> => {
    const key = keyOf(t, brainId);
    const mine = (turns.get(key) ?? Promise.resolve()).catch(() => {}).then(step);
    turns.set(key, mine);
    const done = () => {
      if (turns.get(key) === mine) turns.delete(key);
    };
    mine.then(done, done);
    return mine;
  };

  const requireSync = () => {
    if (!sync)
      throw new MnemoError(
        'not_implemented',
        'sync: this server does not pair (a local deployment of the local engine does)',
      );
    return sync;
  };

  // A loop replaced (its Brain paired again) or stopped (unpaired) may still be ending a run: it
  // schedules nothing and removes nothing, as the Brain's key may already name its successor.
  const current = (loop: BrainLoop) => loops.get(keyOf(loop.t, loop.brainId)) === loop;

  const startIn = (loop: BrainLoop, ms: number) => {
    if (loop.timer) clearTimeout(loop.timer);
    loop.timerAt = Date.now() + ms;
    loop.timer = setTimeout(() => {
      loop.timer = null;
      void run(loop).catch(() => {});
    }, ms);
    loop.timer.unref();
  };

  const schedule = (loop: BrainLoop, ms: number) => {
    if (closed || !current(loop)) return;
    loop.due = Date.now() + ms;
    startIn(loop, ms);
  };

  const nextWait = (loop: BrainLoop) => backoffWait(loop.failures, intervalMs, maxBackoffMs);

  const run = (loop: BrainLoop, allowMore = false): Promise<SyncStatus> => {
    if (loop.running) {
      // A write during a run is pushed by one more run right after it.
      loop.again = true;
      return loop.running;
    }
    const s = requireSync();
    loop.running = (async () => {
      // The run did as much as one run may (the feed's pages, or its time): the rest follows as soon as
      // after a write.
      let more = false;
      try {
        const outcome = await runSync(s, loop.t, loop.brainId, {
          signal: loop.abort.signal,
          ...(o.fetch ? { fetch: o.fetch } : {}),
          ...(o.limits ? { limits: o.limits } : {}),
          ...(allowMore ? { allowMore } : {}),
        });
        if (!closed && current(loop)) {
          const line = runLine(loop.brainId, outcome, allowMore);
          if (line) log(line);
        }
        // A run that kept something before its deadline is a long sync under way (a big first sync over
        // a slow link takes several runs), and a remote that answers: backing off would slow it more
        // with each run, as if the remote were down. One that kept nothing is a stalling remote, which
        // must not be asked again every few seconds: that is a failure, as any other.
        if (outcome.error && !outcome.catchingUp) {
          loop.failures += 1;
          if (!closed && current(loop)) log(`sync of Brain ${loop.brainId} failed: ${outcome.error}`);
        } else {
          loop.failures = 0;
          if (outcome.error && !closed && current(loop))
            log(
              `sync of Brain ${loop.brainId} stopped at its deadline with its progress kept; ` +
                `the next run goes on in ${debounceMs} ms: ${outcome.error}`,
            );
        }
        more = outcome.catchingUp;
        if (!closed && current(loop)) logForgets(loop.brainId, outcome);
      } catch (e) {
        // The Brain was unpaired or forgotten meanwhile: its loop ends.
        if (e instanceof MnemoError && (e.code === 'sync_not_paired' || e.code === 'brain_not_found')) {
          stop(loop);
          throw e;
        }
        loop.failures += 1;
        if (!closed && current(loop))
          log(`sync of Brain ${loop.brainId} failed: ${oneLine(errorMessage(e), 1000)}`);
      } finally {
        loop.running = null;
        ending.delete(loop);
      }
      // A write during a failed run waits for the backoff too, as one after it does (noteWrite): with an
      // agent writing all the while, each run's failure started the next at once, against a remote
      // that is down.
      const again = loop.again && loop.failures === 0;
      loop.again = false;
      if (again && !closed) schedule(loop, 0);
      else schedule(loop, more ? debounceMs : nextWait(loop));
      return withSchedule(loop, await s.status(loop.t, loop.brainId));
    })();
    return loop.running;
  };

  /**
   * One line per run whose remote made this device forget Records, or asked for forgets it held: a
   * hub that erases a Brain is seen in the log, not only in the status. Counts and ids of the Brain
   * and the pairing only, never a Record's text.
   */
  const logForgets = (brainId: string, outcome: { forgotten: number; held: number }) => {
    if (outcome.forgotten > 0)
      log(
        `sync of Brain ${brainId}: its remote said ${outcome.forgotten} ${outcome.forgotten === 1 ? 'Record was' : 'Records were'} ` +
          'forgotten there, and this device forgot them too (forgotten_by_remote in its status)',
      );
    if (outcome.held > 0)
      log(
        `sync of Brain ${brainId}: its remote asked to forget ${outcome.held} more ${outcome.held === 1 ? 'Record' : 'Records'} ` +
          'than sync forgets without asking; they are held until the person confirms them (forgets_held, warning)',
      );
  };

  /** Ends a loop: its timer, and its run in flight, which writes nothing once its pairing is gone. */
  const stop = (loop: BrainLoop) => {
    if (loop.timer) clearTimeout(loop.timer);
    loop.timer = null;
    loop.abort.abort();
    if (loop.running) ending.add(loop);
    if (current(loop)) loops.delete(keyOf(loop.t, loop.brainId));
  };

  const loopOf = (t: Tenant, brainId: string): BrainLoop => {
    const key = keyOf(t, brainId);
    let loop = loops.get(key);
    if (!loop) {
      loop = {
        t,
        brainId,
        timer: null,
        timerAt: Infinity,
        due: Infinity,
        running: null,
        again: false,
        failures: 0,
        abort: new AbortController(),
      };
      loops.set(key, loop);
    }
    return loop;
  };

  /** The store's status with what only this server knows: whether a run is under way, and when the next is. */
  const withSchedule = (loop: BrainLoop | undefined, status: PairingStatus): SyncStatus => {
    const live = status.paired && loop !== undefined && current(loop) && !closed;
    const running = live && loop.running !== null;
    const next = live && !running && loop.timer !== null ? new Date(loop.timerAt).toISOString() : null;
    const { pulledHours, ...kept } = status;
    // The budget as of now, the store keeping what was read: a pause ends when its hours are past.
    const budget = status.paired ? budgetStatus(pulledHours, Date.now(), limits) : null;
    const paused = budget ? pausedWarning(status.brain_id, budget) : null;
    const warning = [kept.warning, paused].filter(Boolean).join('. ') || null;
    return { ...kept, warning, pull_budget: budget, running, next_run_at: next };
  };
  const scheduled = (t: Tenant, brainId: string, status: PairingStatus) =>
    withSchedule(loops.get(keyOf(t, brainId)), status);

  return {
    /** Starts the loops of the Brains paired before this server started: each syncs soon. */
    async start(): Promise<void> {
      if (!sync) return;
      for (const p of await sync.pairedBrains())
        schedule(loopOf({ project: p.project, env: p.env }, p.brainId), debounceMs);
    },
    /**
     * A write to a Brain: if it is paired, it syncs once writes pause for debounceMs, or when the run
     * planned before the writes is due, whichever comes first: a long import still syncs every interval.
     */
    noteWrite(t: Tenant, brainId: string): void {
      const loop = loops.get(keyOf(t, brainId));
      if (!loop || closed) return;
      if (loop.running) loop.again = true;
      else if (loop.failures === 0) startIn(loop, Math.max(0, Math.min(debounceMs, loop.due - Date.now())));
    },
    status: async (t: Tenant, brainId: string) =>
      scheduled(t, brainId, await requireSync().status(t, brainId)),
    /**
     * Pairs once the remote has shown that a run would work (check-remote.ts); a refused check leaves
     * the pairing in place, if any, as it was. Waits for the Brain's pair or unpair before it.
     */
    pair: (t: Tenant, brainId: string, body: SyncPairing): Promise<SyncStatus> =>
      inTurn(t, brainId, async () => {
        const s = requireSync();
        // The Brain here first: pairing one that does not exist sends nothing anywhere.
        await s.status(t, brainId);
        const here = await o.engine.getBrain(t, brainId);
        await checkRemote(
          {
            remote: body.remote,
            remoteBrain: body.remote_brain ?? brainId,
            remoteKey: body.remote_key,
            local: { id: here.id, created_at: here.created_at },
          },
          {
            ...(o.fetch ? { fetch: o.fetch } : {}),
            ...(o.checkTimeoutMs !== undefined ? { timeoutMs: o.checkTimeoutMs } : {}),
            log,
          },
        );
        const status = await s.pair(t, brainId, body);
        // A run of the pairing this one replaces is cut; the new pairing gets a loop of its own.
        const old = loops.get(keyOf(t, brainId));
        if (old) stop(old);
        schedule(loopOf(t, brainId), 0);
        return scheduled(t, brainId, status);
      }),
    /** Unpairs, after the Brain's pairing under way, if any: sent after it, it undoes it. */
    unpair: (t: Tenant, brainId: string): Promise<SyncStatus> =>
      inTurn(t, brainId, async () => {
        const status = await requireSync().unpair(t, brainId);
        const loop = loops.get(keyOf(t, brainId));
        if (loop) stop(loop);
        return withSchedule(undefined, status);
      }),
    /**
     * Syncs now (after a run in flight, if any) and answers with the status after it. `allowMore`: the
     * person allows the pull another day's budget from now (the route takes it from the admin key only).
     */
    async runNow(t: Tenant, brainId: string, o: { allowMore?: boolean } = {}): Promise<SyncStatus> {
      await requireSync().remoteOf(t, brainId);
      const loop = loopOf(t, brainId);
      while (loop.running) await loop.running.catch(() => {});
      return run(loop, o.allowMore === true);
    },
    /**
     * Applies the forgets the guard held, once the person confirmed `count` of them, after a run in
     * flight (which may hold more: the count then differs, and nothing is forgotten); the status after.
     */
    async acceptForgets(t: Tenant, brainId: string, count: number): Promise<SyncStatus> {
      const s = requireSync();
      await s.remoteOf(t, brainId);
      const loop = loops.get(keyOf(t, brainId));
      if (loop?.running) await loop.running.catch(() => {});
      const forgotten = await s.acceptForgets(t, brainId, count);
      if (count > 0)
        log(
          `sync of Brain ${brainId}: the person confirmed ${count} held ${count === 1 ? 'forget' : 'forgets'} of its remote; ` +
            `${forgotten} ${forgotten === 1 ? 'Record was' : 'Records were'} forgotten`,
        );
      return scheduled(t, brainId, await s.status(t, brainId));
    },
    async close(): Promise<void> {
      closed = true;
      const all = [...loops.values(), ...ending];
      for (const loop of all) {
        if (loop.timer) clearTimeout(loop.timer);
        loop.abort.abort();
      }
      await Promise.allSettled(all.map((l) => l.running));
    },
  };
}

export type SyncService = ReturnType<typeof createSyncService>;

/**
 * The log's line of a run that moved anything: what it pushed, and what it read from the feed (Records
 * and bytes, never their text), in the last 24 hours too, and whether that paused the pull (its day's
 * budget). Null for a run that read and sent nothing, as most do (one a minute per paired Brain).
 */
export function runLine(brainId: string, r: RunOutcome, allowedMore = false): string | null {
  // A paused pull is said by the run that paused it; those after it, while it waits, read nothing.
  if (r.pushed === 0 && r.read.records === 0 && !allowedMore) return null;
  return (
    `sync of Brain ${brainId}: pushed ${r.pushed}, pulled ${r.pulled} (read ${r.read.records} Records, ` +
    `${bytesText(r.read.bytes)}; in the last 24 h ${r.day.records} Records, ${bytesText(r.day.bytes)})` +
    (allowedMore ? '; the person allowed the pull another day’s budget' : '') +
    (r.pausedUntil !== null ? `; the pull is paused by its day's budget until ${r.pausedUntil}` : '') +
    (r.catchingUp ? '; more to read, the next run goes on soon' : '')
  );
}

/**
 * The wait before the next run after `failures` failed runs in a row: intervalMs after a success and
 * after the first failure, then twice as long after each further one (1, 2, 4 … minutes by default),
 * never over maxBackoffMs.
 */
export function backoffWait(failures: number, intervalMs: number, maxBackoffMs: number): number {
  if (failures <= 1) return intervalMs;
  return Math.min(maxBackoffMs, intervalMs * 2 ** Math.min(failures - 1, 20));
}
