/**
 * A screen's filters live in its address (`?q=…&status=…`), so Back, reload and a copied link keep
 * them. Values are passed as written: the server checks them as it checks any filter, and a
 * hand-edited address gets its 400 on the screen.
 */
export function readSearch<K extends string>(
  search: string,
  names: readonly K[],
): Partial<Record<K, string>> {
  const q = new URLSearchParams(search);
  const out: Partial<Record<K, string>> = {};
  for (const k of names) {
    const v = q.get(k)?.trim();
    if (v) out[k] = v;
  }
  return out;
}

/** The query string for filters (with its `?`, or '' for none); a value equal to its default is left out. */
export function writeSearch<K extends string>(
  params: Partial<Record<K, unknown>>,
  names: readonly K[],
  defaults: Partial<Record<K, string>> = {},
): string {
  const q = new URLSearchParams();
  for (const k of names) {
    const v = params[k];
    if (v !== undefined && v !== '' && v !== defaults[k]) q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}
