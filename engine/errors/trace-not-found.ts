import { MnemoError } from './mnemo-error.ts';
import { shortened } from './shown-value.ts';

/**
 * `trace_not_found` for a Trace this Brain does not hold. Two things take one away, and the store
 * cannot tell which did: only recent Traces are kept, and a forget removes every Trace that quoted what
 * it forgot (a Trace holds its Records' text). "No trace is held" alone read as a Trace that never
 * was, seconds after its Context was made, when a Record it cited had been forgotten since.
 */
export function traceNotFound(id: string): MnemoError {
  return new MnemoError(
    'trace_not_found',
    `trace_id: no trace ${shortened(id)} is held for this Brain. Only recent Traces are kept, and a ` +
      'Trace is removed when a Record it quoted is forgotten (alone, with its source or its Brain): ' +
      'either may have taken this one',
  );
}
