import { createHash } from 'node:crypto';
import { errorCodes, isErrorCode } from '../../engine/errors/codes.ts';

const esc = (s: string) =>
  s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);

const style =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:3rem auto;padding:0 1rem;color:#1d2430}' +
  'code{background:#eef1f5;padding:.1rem .3rem;border-radius:4px}td,th{padding:.3rem .6rem;text-align:left;border-bottom:1px solid #dde2ea}';

/**
 * Headers of every docs page. They share an origin with the UI, whose admin key is in its session
 * storage: no script, no frames, nothing from elsewhere; the one inline style by its hash.
 */
export const docsPageHeaders: Readonly<Record<string, string>> = {
  'Content-Security-Policy': [
    "default-src 'none'",
    `style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>` +
  '<meta name="viewport" content="width=device-width, initial-scale=1">' +
  `<style>${style}</style></head><body>${body}</body></html>`;

const retry: Record<string, string> = {
  invalid_request: 'No. Fix the request.',
  authentication: 'No. Fix the credential.',
  permission: 'No.',
  not_found: 'No (except memory_not_found while the Record is still processing).',
  conflict: 'Once, after re-reading and re-applying; never by removing if_version.',
  rate_limit: 'Yes, with exponential backoff, after retry_after_seconds.',
  policy: 'No.',
  internal:
    'Once; a rememberRecord retry must resend the same Idempotency-Key. Never for not_implemented or memory_without_lineage.',
};

/** Where a code's own advice differs from its type's: a conflict over a name or a key is not re-applied. */
const retryOfCode: Record<string, string> = {
  brain_exists: 'No: a Brain with this id exists. Read it (getBrain), or create one under another id.',
  idempotency_conflict:
    'No: the key was used for another body. Send the same body to replay it, or a new key for a new request.',
  correction_conflict: 'No: read the slot again (getMemory) and correct the value that is current now.',
  store_unavailable:
    'Yes, after a pause, while the cause passes by itself: a database down or overloaded, a disk full until space is ' +
    'freed. Not when the message says the store could not sync its log (restart Mnemo) or its file is damaged ' +
    '(restore your latest backup).',
  sync_remote_unavailable:
    'Once the remote answers again, or with the address fixed (a redirect names where it points). Nothing was paired.',
  sync_remote_key_refused:
    'No. Pair again with a key of the hosted Mnemo that has records:read and records:write.',
  sync_remote_unsupported: 'No. Pair with a hosted Mnemo of this version (mnemo serve --deployment hosted).',
  sync_forgets_changed:
    'No: read the sync status again, show its forgets_held to the person, and confirm that number if they agree.',
};

/**
 * Codes no server sends: the typed client, the MCP bridge and sync raise them themselves (status 0),
 * when an answer never came or could not be read. Their docs_url names a page too.
 */
const clientCodes: Readonly<Record<string, { summary: string; retry: string }>> = {
  network_error: {
    summary:
      'The server could not be reached, or took the connection and did not answer in time, or the connection ' +
      'dropped before its answer. reached_server false: nothing was sent, so nothing was applied.',
    retry:
      'Yes, once the server runs (start Mnemo, or check the URL). A write whose request may have reached the ' +
      'server is retried with the same Idempotency-Key, so it is not applied twice.',
  },
  remote_timeout: {
    summary:
      'A remote (a hosted Mnemo a Brain syncs with) did not answer within the time allowed; the request was cut.',
    retry: 'Yes, later: sync runs again by itself.',
  },
  response_too_large: {
    summary: 'An answer was larger than the client reads; it was not read further.',
    retry: 'No: ask for less (a smaller page).',
  },
  remote_redirected: {
    summary: 'A remote answered with a redirect, which is not followed; location names where it pointed.',
    retry: 'No: use the address it names, if it is the right server.',
  },
};

/** One code's page: what it means, its status and type, and whether to retry. */
function codePage(
  code: string,
  o: { summary: string; status: string; type: string; retry: string; more?: string },
) {
  return page(
    `Mnemo error ${code}`,
    `<h1><code>${code}</code></h1><p>${esc(o.summary)}</p>` +
      `<table><tr><th>HTTP status</th><td>${o.status}</td></tr><tr><th>type</th><td><code>${o.type}</code></td></tr>` +
      `<tr><th>Retry?</th><td>${esc(o.retry)}</td></tr></table>${o.more ?? ''}` +
      '<p><a href="/docs">All error codes</a></p>',
  );
}

/** The human-readable page behind every error's docs_url. */
export function errorPage(code: string): string | null {
  if (Object.hasOwn(clientCodes, code))
    return codePage(code, {
      ...clientCodes[code]!,
      status: '0 (no answer from a server: raised by the client)',
      type: 'internal',
    });
  if (!isErrorCode(code)) return null;
  const info = errorCodes[code];
  return codePage(code, {
    summary: info.summary,
    status: String(info.status),
    type: info.type,
    retry: retryOfCode[code] ?? retry[info.type] ?? 'No.',
    more:
      '<p>Every error has the body <code>{type, code, message, request_id, docs_url}</code>, plus additive fields. ' +
      'Branch on <code>type</code> and <code>code</code>; <code>message</code> is for people.</p>',
  });
}

/** A table of codes, each linking to its page. */
const codeTable = (rows: readonly [code: string, status: number, type: string][]) =>
  '<table><tr><th>code</th><th>status</th><th>type</th></tr>' +
  rows
    .map(
      ([code, status, type]) =>
        `<tr><td><a href="/docs/errors/${code}"><code>${code}</code></a></td><td>${status}</td><td>${type}</td></tr>`,
    )
    .join('') +
  '</table>';

export function errorIndexPage(): string {
  return page(
    'Mnemo error codes',
    `<h1>Mnemo error codes</h1>${codeTable(Object.entries(errorCodes).map(([code, i]) => [code, i.status, i.type]))}` +
      '<h2>Raised by the client, the MCP bridge and sync</h2><p>No server sends these: the caller found no answer, or one it could not read.</p>' +
      codeTable(Object.keys(clientCodes).map((code) => [code, 0, 'internal'])),
  );
}
