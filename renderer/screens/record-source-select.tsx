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
 * The choice of Records with no source name (written over /v1 by a client that names none): the API's
 * `has_source=false`. A source name never holds a NUL (the server refuses one), so this is no name.
 */
export const noSource = '\u0000';

/**
 * The Brain's own sources to pick from, and Records with none (`noSource`): the filter matches a source name exactly, and a guess ("mail"
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
        <option value={noSource}>None (written through the API)</option>
        {sources.map((s) => (
          <option key={s.name} value={s.name}>
            {sourceLabel(s)}
          </option>
        ))}
        {value && value !== noSource && !sources.some((s) => s.name === value) ? (
          <option value={value}>{value}</option>
        ) : null}
      </select>
    </label>
  );
}
