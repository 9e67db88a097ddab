import type { BrainSequence, MemoryReads } from '../ports/index.ts';
import type { EngineCtx } from './local-ctx.ts';

type Names = Pick<MemoryReads, 'subjectNames' | 'ownerNames'>;

/** One Brain's names as read at one step of its sequence. */
interface Kept {
  seq: number;
  subjects?: readonly string[];
  owners?: readonly string[];
}

/** Brains whose names are kept, per engine: a few UI tabs and agents at a time, not every Brain. */
const keptBrains = 32;
const keptByEngine = new WeakMap<EngineCtx, Map<string, Kept>>();

/**
 * A Brain's subject and owner names for a `subject` or `owner` filter, read again only after the
 * Brain's sequence moved: every change to its Memories takes a step, and the reads walk one index
 * probe per name (12-16 ms a page at 100,000 Memories), which a person paging or an agent asking
 * again would otherwise pay on every page. The step is read in the caller's unit of work, so the
 * names are those of the snapshot the page reads.
 */
export function brainNames(
  ctx: EngineCtx,
  brainUid: string,
  u: { readonly memories: MemoryReads; readonly sequence: BrainSequence },
): Names {
  let kept = keptByEngine.get(ctx);
  if (kept === undefined) keptByEngine.set(ctx, (kept = new Map()));
  const brains = kept;
  const atStep = async (): Promise<Kept> => {
    const seq = await u.sequence.current();
    const found = brains.get(brainUid);
    if (found !== undefined && found.seq === seq) return found;
    const fresh: Kept = { seq };
    brains.delete(brainUid);
    brains.set(brainUid, fresh);
    if (brains.size > keptBrains) brains.delete(brains.keys().next().value as string);
    return fresh;
  };
  return {
    subjectNames: async () => {
      const k = await atStep();
      k.subjects ??= await u.memories.subjectNames();
      return [...k.subjects];
    },
    ownerNames: async () => {
      const k = await atStep();
      k.owners ??= await u.memories.ownerNames();
      return [...k.owners];
    },
  };
}
