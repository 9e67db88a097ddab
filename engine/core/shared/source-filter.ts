import type { RecordListQuery } from '../../contract/index.ts';
import { MnemoError } from '../../errors/mnemo-error.ts';

/**
 * A source's name and "no source" together match nothing: refused, as the change feed refuses filters,
 * rather than an empty page that reads as "none written".
 */
export function sourceFilterAgrees(q: Pick<RecordListQuery, 'source' | 'has_source'>): void {
  if (q.source !== undefined && q.has_source === 'false')
    throw new MnemoError(
      'conflicting_parameters',
      'source, has_source=false: a Record with a source name is not one with no source',
    );
}
