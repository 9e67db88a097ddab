import { uiCsp } from '../server/ui/csp.ts';
import { isAppUrl } from './url-trust.ts';

export { uiCsp };

type Headers = Record<string, string[] | string>;

/**
 * Adds the UI's CSP to a response of the app's own server (it sends it already; the shell enforces it
 * again so a server bug cannot loosen it), and leaves other responses alone.
 */
export function withCsp(url: string, appOrigin: string, headers: Headers | undefined): Headers {
  const out: Headers = { ...(headers ?? {}) };
  if (!isAppUrl(url, appOrigin)) return out;
  for (const name of Object.keys(out)) if (name.toLowerCase() === 'content-security-policy') delete out[name];
  out['Content-Security-Policy'] = [uiCsp];
  return out;
}
