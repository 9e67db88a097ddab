import { parseRoute } from './routes.ts';

/**
 * The page to go back to after signing in again, from what a tab kept when its sign-in ended: only a
 * path of this app on this origin (no other site, no `//host` or `/\host` that a browser reads as one,
 * no page the app does not have), else null. The Brains page is where a sign-in lands anyway: null.
 */
export function safeReturnPath(raw: string | null, origin: string): string | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || url.pathname === '/') return null;
  if (parseRoute(url.pathname).name === 'not-found') return null;
  return url.pathname + url.search;
}
