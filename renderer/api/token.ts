/** Reads `token` from the fragment or query of the address `mnemo serve --ui` printed. */
export function tokenFromLocation(loc: { hash: string; search: string }): string | null {
  const fromHash = new URLSearchParams(loc.hash.replace(/^#/, '')).get('token');
  return fromHash ?? new URLSearchParams(loc.search).get('token');
}
