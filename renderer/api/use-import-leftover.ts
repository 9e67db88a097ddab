/** The Brain's last import as the Import screen tells of it when this page does not run it. */
import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  clearImportMarker,
  importMarkerEvent,
  readImportMarker,
  runningSomewhere,
  type ImportMarker,
} from './import-marker.ts';
import { importRunOptions } from './mutations.ts';

export type ImportLeftover =
  | { state: 'elsewhere'; marker: ImportMarker }
  | { state: 'interrupted' | 'cancelled' | 'failed'; marker: ImportMarker };

/**
 * The Brain's last import, when it did not finish or runs in another tab; null when there is none or
 * this page runs it (its own progress is shown then). Follows other tabs through `storage` events,
 * and looks again every 2 s while another tab runs one.
 */
export function useImportLeftover(brainId: string): { leftover: ImportLeftover | null; dismiss: () => void } {
  const qc = useQueryClient();
  const run = useQuery(importRunOptions(qc, brainId)).data ?? null;
  const ours = run?.status === 'pending';
  const [marker, setMarker] = useState(() => readImportMarker(brainId));
  const [looked, setLooked] = useState<{ id: string; held: boolean } | null>(null);
  useEffect(() => {
    const reread = () => setMarker(readImportMarker(brainId));
    window.addEventListener(importMarkerEvent, reread);
    window.addEventListener('storage', reread);
    return () => {
      window.removeEventListener(importMarkerEvent, reread);
      window.removeEventListener('storage', reread);
    };
  }, [brainId]);
  const id = marker && !marker.ended && !ours ? marker.id : null;
  useEffect(() => {
    if (id === null) return;
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const look = () =>
      void runningSomewhere(id).then(
        (held) => {
          if (stop) return;
          // Without Web Locks, a marker this page does not run is taken as cut short.
          setLooked({ id, held: held === true });
          if (held) timer = setTimeout(look, 2000);
        },
        () => !stop && setLooked({ id, held: false }),
      );
    look();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [id]);
  const dismiss = () => clearImportMarker(brainId);
  if (!marker || ours) return { leftover: null, dismiss };
  if (marker.ended) return { leftover: { state: marker.ended, marker }, dismiss };
  if (looked?.id !== marker.id) return { leftover: null, dismiss };
  return { leftover: { state: looked.held ? 'elsewhere' : 'interrupted', marker }, dismiss };
}
