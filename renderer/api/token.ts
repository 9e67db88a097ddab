/**
 * Reads the one-time token from the address `mnemo serve --ui` printed (`/#ui_token=...`; a fragment,
 * so it never reaches a server log). `token` in the fragment or query is accepted too.
 */
export function tokenFromLocation(loc: { hash: string; search: string }): string | null {
  const hash = new URLSearchParams(loc.hash.replace(/^#/, ''));
  const query = new URLSearchParams(loc.search);
  return hash.get('ui_token') ?? hash.get('token') ?? query.get('ui_token') ?? query.get('token');
}
