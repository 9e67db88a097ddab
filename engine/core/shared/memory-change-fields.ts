import type { MemoryChanges } from '../../ports/index.ts';

/**
 * Every field of MemoryChanges, in the order an adapter's SET clause names them: each adapter builds
 * that clause from this list, never from input.
 */
export const memoryChangeFields = [
  'slot',
  'lineage',
  'version',
  'predicate',
  'statement',
  'norm',
  'subject',
  'valid_from',
  'valid_from_ms',
  'valid_to',
  'valid_to_ms',
  'source_key',
  'status',
  'pending',
  'retracted_by',
  'revised_by',
  'seq',
  'learned_at',
  'cause',
  'owner_state',
  'owner_entity',
] as const satisfies readonly (keyof MemoryChanges)[];

// A field added to MemoryChanges but not here would never be written: this fails to compile then.
const everyField: Exclude<keyof MemoryChanges, (typeof memoryChangeFields)[number]> extends never
  ? true
  : never = true;
void everyField;
