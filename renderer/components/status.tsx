import type { ReactNode } from 'react';
import { isMnemoApiError } from '../api/client.ts';

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
  conflict: 'That clashes with something newer',
  rate_limit: 'Too many requests just now',
  policy: 'Not allowed by policy',
  internal: 'Something went wrong on the server',
};

/** Shows the spec's `message` and `code` (and the request id, for a bug report). */
export function ErrorNotice({ error, action }: { error: unknown; action?: ReactNode }) {
  if (isMnemoApiError(error)) {
    return (
      <div className="status error" role="alert">
        <p className="error-title">{headings[error.type] ?? 'Something went wrong'}</p>
        <p>{error.message}</p>
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
  return (
    <div className="status error" role="alert">
      <p className="error-title">Something went wrong</p>
      <p>{message}</p>
      {action}
    </div>
  );
}
