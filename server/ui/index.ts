import type { Context, Env, Hono } from 'hono';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { keylessJsonField } from '../http/keyless-json.ts';
import { uiSecurityHeaders } from './csp.ts';
import { readStaticFile } from './static-files.ts';
import { durationWords, uiTokenTtlMs } from './token-ttl.ts';

export interface UiOptions {
  /** Directory holding the built renderer (index.html and assets). */
  distDir: string;
  /**
   * Trades the one-time token printed on the `ui:` line for an API key; null when unknown or used,
   * 'expired' when it was printed more than tokenTtlMs ago.
   */
  exchangeToken: (token: string) => string | 'expired' | null | Promise<string | null>;
  /** How long a token signs in after it was printed (default uiTokenTtlMs): said when one expired. */
  tokenTtlMs?: number;
  /** How long the exchange's body may take to arrive (default 10 s): it is read before any key. */
  sessionBodyMs?: number;
}

const notBuilt = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Mnemo</title>
<body><main><h1>The Mnemo UI is not built yet</h1><p>Run <code>npm run build:ui</code>, then reload this page.
The API under <code>/v1</code> works without it.</p></main></body></html>`;

function secure(c: Context): void {
  for (const [name, value] of Object.entries(uiSecurityHeaders)) c.header(name, value);
}

/** Paths the UI must never answer: the API, its sign-in exchange and /local/identity have handlers of their own. */
function isReserved(path: string): boolean {
  return path === '/v1' || path.startsWith('/v1/') || path === '/ui/session' || path === '/local/identity';
}

/**
 * Serves the built renderer at `/` (never under /v1) and the one-time token exchange.
 * Client-side routes (e.g. /brains/b1/memories) fall back to index.html so a reload or a pasted link
 * opens the same screen; paths that look like files (have an extension) 404 instead, so a missing
 * asset is not answered with HTML. Failures of the exchange throw MnemoError, so the app's one error
 * handler writes them in the spec's shape.
 */
export function mountUi<E extends Env>(app: Hono<E>, options: UiOptions): void {
  const { distDir, exchangeToken } = options;

  app.post('/ui/session', async (c) => {
    secure(c);
    c.header('Cache-Control', 'no-store');
    // Unauthenticated: read no more than a token needs.
    const token = await keylessJsonField(c, 'token', 4096, options.sessionBodyMs ?? 10_000);
    if (typeof token !== 'string' || token.length === 0 || token.length > 512) {
      throw new MnemoError(
        'invalid_request_body',
        'token: must be the non-empty string printed on the ui: line',
      );
    }
    const apiKey = await exchangeToken(token);
    if (apiKey === 'expired') {
      throw new MnemoError(
        'http_401',
        `This sign-in link has expired: each one signs in once, within ${durationWords(options.tokenTtlMs ?? uiTokenTtlMs)} of being printed. Restart \`mnemo serve --ui\` for a new link, or paste an API key instead (\`mnemo keys create --project local --env live --admin\`, with the server’s \`--data-dir\` if it was given one, makes one).`,
      );
    }
    if (apiKey === null) {
      throw new MnemoError(
        'http_401',
        'This sign-in link was already used or is unknown: each one signs in once. Paste an API key instead (`mnemo keys create --project local --env live --admin`, with the server’s `--data-dir` if it was given one, makes one), or restart `mnemo serve --ui` for a new link.',
      );
    }
    return c.json({ api_key: apiKey });
  });

  app.on(['GET', 'HEAD'], '*', async (c, next) => {
    const path = c.req.path;
    if (isReserved(path)) return next();
    const looksLikeFile = /\.[A-Za-z0-9]+$/.test(path.split('/').pop() ?? '');
    const file = path === '/' ? null : await readStaticFile(distDir, path);
    if (file) {
      secure(c);
      c.header('Content-Type', file.contentType);
      c.header('Cache-Control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      return c.body(new Uint8Array(file.body));
    }
    if (looksLikeFile) return next();
    secure(c);
    c.header('Cache-Control', 'no-store');
    const index = await readStaticFile(distDir, '/index.html');
    if (!index) return c.html(notBuilt, 503);
    c.header('Content-Type', index.contentType);
    return c.body(new Uint8Array(index.body));
  });
}
