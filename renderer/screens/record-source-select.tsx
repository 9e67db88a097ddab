import { useQuery } from '@tanstack/react-query';
import type { SourceSummary } from '../../engine/contract/index.ts';
import { useClient } from '../api/client.ts';
import { sourceListOptions } from '../api/queries.ts';
import { plural } from '../format.ts';
import { sourceTitle } from '../import-formats.ts';

/** An importer names its source after its format (`mbox`); the person knows it as "Mail". */
function sourceLabel(s: SourceSummary): string {
  const title = sourceTitle(s.name);
  return `${title === s.name ? s.name : `${title} (${s.name})`}, ${plural(s.records, 'Record')}`;
}

/**
 * The Brain's own sources to pick from: the filter matches a source name exactly, and a guess ("mail"
 * for `mbox`, "Phone" for `phone`) finds nothing. A name from the address that the Brain does not
 * hold (any more) stays a choice, so the form still shows what is applied.
 */
export function SourceSelect({
  brainId,
  value,
  onChange,
}: {
  brainId: string;
  value: string;
  onChange: (v: string) => void;
}) {
  const client = useClient();
  const sources = useQuery(sourceListOptions(client, brainId)).data?.data ?? [];
  return (
    <label>
      Source
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Any</option>
        {sources.map((s) => (
          <option key={s.name} value={s.name}>
            {sourceLabel(s)}
          </option>
        ))}
        {value && !sources.some((s) => s.name === value) ? <option value={value}>{value}</option> : null}
      </select>
    </label>
  );
}
