import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelfName } from '../api/self-name.ts';
import { useClient } from '../api/client.ts';
import { memoryOptions, recordOptions } from '../api/queries.ts';
import { oneLine } from '../format.ts';
import { recordSummary, statementLabel } from '../record-text.ts';
import { Link } from '../router.tsx';
import { paths } from '../routes.ts';

/**
 * One of the Census' examples, which the API gives as ids: a person recognises the statement or the
 * words of a Record, not `mem_01J…`. The id stays in the title (and is shown while the text loads, or
 * when the item has been forgotten since the Census was counted).
 */
export function CensusExample({ brainId, id }: { brainId: string; id: string }) {
  const client = useClient();
  const selfName = useSelfName(brainId);
  const isMemory = id.startsWith('mem_');
  const memory = useQuery({
    ...memoryOptions(client, brainId, id, useQueryClient()),
    enabled: isMemory,
    retry: false,
  });
  const record = useQuery({ ...recordOptions(client, brainId, id), enabled: id.startsWith('rec_') });
  if (isMemory) {
    // Said as everywhere else: "Ana's home city is Porto", not the stored "self home city: Porto".
    return (
      <Link to={paths.memory(brainId, id)} title={id}>
        {memory.data === undefined ? (
          <span className="mono">{id}</span>
        ) : (
          `“${oneLine(statementLabel(memory.data))}”`
        )}
      </Link>
    );
  }
  const content = record.data?.content;
  return content === undefined ? (
    <span className="mono">{id}</span>
  ) : (
    <span title={id} dir="auto">
      “{oneLine(recordSummary(content, selfName))}”
    </span>
  );
}
