import { bridge } from './bridge.ts';
import { tokenFromLocation } from './token.ts';

export interface Session {
  baseUrl: string;
  apiKey: string;
}

const storageKey = 'mnemo.session';

function apiBase(): string {
  return `${window.location.origin}/v1`;
}

function remember(session: Session): Session {
  // sessionStorage: survives a reload of this tab (the token is one-time) and dies with the tab.
  window.sessionStorage.setItem(storageKey, JSON.stringify(session));
  return session;
}

export function forgetSession(): void {
  window.sessionStorage.removeItem(storageKey);
}

export class SessionError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * Finds the credentials the UI uses: from the desktop shell's bridge, else by trading the one-time
 * token in the address for a key (then removing it from the address bar), else from this tab's
 * earlier exchange. Null means the person has to paste a key.
 */
export async function loadSession(): Promise<Session | null> {
  const shell = bridge();
  if (shell) return shell.getSession();

  const token = tokenFromLocation(window.location);
  if (token) {
    const url = new URL(window.location.href);
    url.searchParams.delete('token');
    url.searchParams.delete('ui_token');
    url.hash = '';
    window.history.replaceState(null, '', url.pathname + url.search);
    const res = await fetch('/ui/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    const body = (await res.json().catch(() => ({}))) as {
      api_key?: string;
      message?: string;
      code?: string;
    };
    if (res.ok && body.api_key) return remember({ baseUrl: apiBase(), apiKey: body.api_key });
    const stored = readStored();
    if (stored) return stored;
    throw new SessionError(
      body.message ?? `Sign-in failed (HTTP ${res.status}).`,
      body.code ?? `http_${res.status}`,
    );
  }
  return readStored();
}

function readStored(): Session | null {
  try {
    const raw = window.sessionStorage.getItem(storageKey);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Session>;
    return typeof parsed.apiKey === 'string' ? { baseUrl: apiBase(), apiKey: parsed.apiKey } : null;
  } catch {
    return null;
  }
}

/** A key pasted by hand (sign-in screen): checked by the caller, kept for this tab. */
export function sessionFromKey(apiKey: string): Session {
  return remember({ baseUrl: apiBase(), apiKey: apiKey.trim() });
}
