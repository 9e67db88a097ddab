import type { ReactNode } from 'react';
import { isMnemoApiError, isProxyAnswer, proxyStatus } from '../api/client.ts';
import { leavesDataStanding } from '../api/stale-reads.ts';
import { type FieldLabel, withFieldLabels } from '../field-labels.ts';

export function Loading({ what }: { what: string }) {
  return (
    <p className="status loading" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="status empty">
      <p className="empty-title">{title}</p>
      {children ? <div className="empty-help">{children}</div> : null}
    </div>
  );
}

const headings: Record<string, string> = {
  invalid_request: 'The request was not accepted',
  authentication: 'Your key was not accepted',
  permission: 'This key is not allowed to do that',
  not_found: 'Not found',
  conflict: 'That clashes with what is already there',
  rate_limit: 'Too many requests just now',
  policy: 'Not allowed by policy',
  internal: 'Something went wrong on the server',
};

/**
 * Codes whose plain meaning is not the server's message: the server cannot be reached (it is not
 * broken), a key revoked because the server stopped (the UI's session key is revoked on exit), and a
 * hosted Mnemo that a pairing's check found wanting.
 */
const explained: Record<string, { title: string; help: string }> = {
  network_error: {
    title: 'Mnemo cannot be reached',
    // Said under a failed action too (Create Brain, Remember this), where no Try again is above: the
    // banner that has one comes only with a failed read.
    help: 'Is it still running? Once the app (or `mnemo serve --ui`) is started again, try once more.',
  },
  key_revoked: {
    title: 'This sign-in has ended',
    help: 'Mnemo was restarted or the key was revoked. Open the new address that `mnemo serve --ui` printed, or paste an API key (`mnemo keys create --project local --env live --admin`, with the server’s `--data-dir` if it was given one, makes one).',
  },
  // The one-time sign-in link, used a second time (a closed tab, a bookmark) or opened after its
  // minutes were up: the server says which, and what to do.
  http_401: { title: 'This sign-in link no longer works', help: '' },
  // Pairing checked the hosted Mnemo: the trouble is there, not in this app (its type alone would say
  // "your key" or "the server"). The message says what it answered. Unavailable covers more than an
  // address nothing answers at: a page that is no Mnemo's, a redirect, a 5xx or 429.
  sync_remote_unavailable: { title: 'The hosted Mnemo did not answer as expected', help: '' },
  sync_remote_key_refused: { title: 'The hosted Mnemo refused that key', help: '' },
  sync_remote_unsupported: { title: 'That server cannot sync', help: '' },
  // Not "something went wrong": the store's disk or file is, and the message says what mends it.
  store_unavailable: { title: 'Mnemo cannot use its store', help: '' },
};

/** Text whose `quoted` parts are commands or names: shown as code, not as literal backticks. */
function withCode(text: string): ReactNode[] {
  return text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part));
}

/**
 * Shows the spec's `message` and `code` (and the request id, for a bug report). `fields`: the screen's
 * labels of the API fields the message may name (`{ q: 'Search' }`), said instead of those names, with
 * a menu's choices.
 */
export function ErrorNotice({
  error,
  action,
  fields,
}: {
  error: unknown;
  action?: ReactNode;
  fields?: Readonly<Record<string, FieldLabel>>;
}) {
  if (isMnemoApiError(error) && isProxyAnswer(error)) {
    const http = proxyStatus(error);
    // Not Mnemo's answer: no Mnemo code or request id to show (`http_502` would be one the client made
    // up from the status), and the person needs to know the server is behind something that failed.
    return (
      <div className="status error" role="alert">
        <p className="error-title">
          {error.status >= 500
            ? 'The server could not be reached through its proxy'
            : 'A proxy in front of the server refused the request'}
        </p>
        <p>
          {error.status >= 500
            ? `The proxy answered ${http} in Mnemo's place. Mnemo may be stopped or restarting: try again in a moment, or ask whoever runs the server.`
            : `The proxy answered ${http} in Mnemo's place, so the request did not reach Mnemo. Whoever runs the server can say why.`}
        </p>
        {action}
      </div>
    );
  }
  if (isMnemoApiError(error)) {
    const plain = explained[error.code];
    const message = fields ? withFieldLabels(error.message, fields) : error.message;
    return (
      <div className="status error" role="alert">
        <p className="error-title">{plain?.title ?? headings[error.type] ?? 'Something went wrong'}</p>
        {plain?.help ? <p>{withCode(plain.help)}</p> : null}
        <p>{withCode(message)}</p>
        <p className="error-meta">
          Code <code>{error.code}</code>
          {error.requestId ? (
            <>
              {' '}
              · request <code>{error.requestId}</code>
            </>
          ) : null}
        </p>
        {action}
      </div>
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  // A sign-in that failed before any API call (SessionError) carries the server's code too.
  const code = (error as { code?: unknown } | null)?.code;
  const plain = typeof code === 'string' ? explained[code] : undefined;
  return (
    <div className="status error" role="alert">
      <p className="error-title">{plain?.title ?? 'Something went wrong'}</p>
      <p>{withCode(message)}</p>
      {action}
    </div>
  );
}

/**
 * Whether a screen that has data shows its query's error instead: not when the error only says the
 * server cannot be reached right now, or failed to answer (a 5xx, Mnemo's or a proxy's). Then the rows
 * already loaded stay, and the app's banner says they may be out of date (api/stale-reads.ts).
 */
export function errorHidesData(q: { isError: boolean; error: unknown }): boolean {
  return q.isError && !leavesDataStanding(q.error);
}
