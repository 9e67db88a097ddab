import { exportBrain, writeExport, type ExportEnd } from '../server/client/brain-export.ts';
import type { MnemoClient } from '../server/client/index.ts';

/**
 * Reads the whole Brain as `mnemo export` writes it (JSON Lines of /v1 resources, docs/agents.md) and
 * hands it to the browser as a download named after the Brain; in the desktop app, a save dialog.
 */
export async function downloadBrain(
  client: MnemoClient,
  brainId: string,
): Promise<{ end: ExportEnd; fileName: string }> {
  const parts: string[] = [];
  const end = await writeExport(exportBrain(client, brainId, { includeLocalOnly: true }), (chunk) => {
    parts.push(chunk);
  });
  const fileName = `${brainId}.jsonl`;
  const url = URL.createObjectURL(new Blob(parts, { type: 'application/x-ndjson' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later, not at once: the browser may still be reading it for the download.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { end, fileName };
}
