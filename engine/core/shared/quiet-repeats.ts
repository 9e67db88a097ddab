/**
 * A log call that says a failure once, then at most once per `everyMs` while it keeps recurring, with
 * how many times it recurred since it was last said. A failing disk failed the retrieval indexer's
 * every batch and kick, ~7 lines a second, burying the one line that said what to do.
 */
export function quietRepeats(
  log: (msg: string, fields: Record<string, unknown>) => void,
  everyMs = 60_000,
  now: () => number = () => Date.now(),
): (msg: string, fields: Record<string, unknown>) => void {
  const told = new Map<string, { at: number; since: number }>();
  return (msg, fields) => {
    // The same message with the same error is one failure recurring; another error is said at once.
    const key = `${msg}\u0000${String(fields['error'] ?? '')}`;
    const last = told.get(key);
    const t = now();
    if (last && t - last.at < everyMs) {
      last.since += 1;
      return;
    }
    if (told.size >= 100) told.clear();
    told.set(key, { at: t, since: 0 });
    log(msg, last && last.since > 0 ? { ...fields, repeated: last.since } : fields);
  };
}
