import { MnemoError } from '../errors/mnemo-error.ts';
import { quoted } from '../errors/shown-value.ts';
import type { BrainRepository } from '../ports/index.ts';
import type { Tenant } from '../types.ts';

/**
 * The uids of the Brains appended to lately, by tenant and id. An append needs only its Brain's uid,
 * and reading the Brain's row before its unit of work cost each one a round trip in PostgreSQL (in
 * SQLite an implicit read transaction, whose saving bench write did not show). A remembered uid is a
 * guess the unit of work checks: every unit reads its Brain inside its transaction and refuses one
 * that is gone with brain_not_found, having run nothing. Then the guess is dropped and the Brain looked
 * up afresh, so a Brain forgotten (by this process or another) answers as before, and one made again
 * under the same id is written to.
 */
export interface BrainUids {
  /** Runs `work` with the uid of the tenant's Brain `brainId`; brain_not_found when there is none. */
  withUid<T>(t: Tenant, brainId: string, work: (uid: string) => Promise<T>): Promise<T>;
}

/** What an operation answers for a Brain id the tenant has none of (another tenant's is none too). */
export const noSuchBrain = (brainId: string) =>
  new MnemoError('brain_not_found', `brain_id: no Brain ${quoted(brainId)} in this project`);

const gone = (e: unknown) => e instanceof MnemoError && e.code === 'brain_not_found';

export function brainUids(brains: Pick<BrainRepository, 'find'>, max = 1_000): BrainUids {
  const uids = new Map<string, string>();
  return {
    async withUid(t, brainId, work) {
      const key = `${t.project}\0${t.env}\0${brainId}`;
      // Runs work with a uid, forgetting that uid if its unit found the Brain gone.
      const attempt = async (uid: string) => {
        try {
          return await work(uid);
        } catch (e) {
          if (gone(e) && uids.get(key) === uid) uids.delete(key);
          throw e;
        }
      };
      const known = uids.get(key);
      if (known !== undefined) {
        try {
          return await attempt(known);
        } catch (e) {
          if (!gone(e)) throw e;
        }
      }
      const b = await brains.find(t, brainId);
      if (!b) throw noSuchBrain(brainId);
      // The oldest goes first: a Map iterates in insertion order.
      if (uids.size >= max) uids.delete(uids.keys().next().value!);
      uids.set(key, b.uid);
      return attempt(b.uid);
    },
  };
}
