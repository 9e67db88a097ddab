import { errorFromResponse } from '../../server/client/mnemo-api-error.ts';
import { bridge } from './bridge.ts';
import { safeReturnPath } from '../return-path.ts';
import { tokenFromLocation } from './token.ts';

export interface Session {
  baseUrl: string;
  apiKey: string;
}

const storageKey = 'mnemo.session';
/** Why this tab was signed out on purpose, said on the sign-in screen until a new key is kept. */
const signOutKey = 'mnemo.signed-out';
/** The desktop shell's key was revoked in this window: the shell would hand the same dead key back. */
const shellKeyRevoked = 'mnemo.shell-key-revoked';
/** The page the tab was on when its sign-in ended, to go back to once signed in again. */
const returnKey = 'mnemo.return-to';

/** The key this window is signed in with, so the Keys screen can tell it apart from the others. */
let current: string | null = null;

export function currentApiKey(): string | null {
  return current;
}

function apiBase(): string {
  return `${window.location.origin}/v1`;
}

function remember(session: Session): Session {
  // sessionStorage: survives a reload of this tab (the token is one-time) and dies with the tab.
  window.sessionStorage.setItem(storageKey, JSON.stringify(session));
  current = session.apiKey;
  return session;
}

/**
 * Forgets the key alone. A sign-in that ended (a server restart revoked the key) comes here: what the
 * person was writing (a note, a correction; note-draft.ts, correction-draft.ts) stays in the tab for
 * when they sign in again. Only signing out on purpose (endSession) clears the rest.
 */
export function forgetSession(): void {
  window.sessionStorage.removeItem(storageKey);
  current = null;
}

/**
 * The sign-in ended where the person was (their key stopped working): remembers the page, so that
 * opening the new sign-in address in this tab, which lands on `/`, brings them back to it.
 */
export function rememberReturnPath(): void {
  try {
    window.sessionStorage.setItem(returnKey, window.location.pathname + window.location.search);
  } catch {
    // Storage refused: they land on the Brains, as before.
  }
}

/** Signed in where the person is: no page to go back to any more. */
export function clearReturnPath(): void {
  window.sessionStorage.removeItem(returnKey);
}

export type SignOutReason = 'own-key-revoked' | 'signed-out';

/**
 * Signs this window out on purpose (its own key was just revoked, or the person asked) by loading the app afresh: every
 * query of the old session goes with the page, so none of them answers with a 401 meanwhile, and the
 * sign-in screen says why it is shown rather than reporting an error.
 */
export function endSession(reason: SignOutReason): void {
  // The shell mints its key once per run; until the app is started again, a key pasted here is used.
  if (bridge() && current !== null && readStored() === null)
    window.sessionStorage.setItem(shellKeyRevoked, '1');
  forgetSession();
  // Signing out on purpose leaves nothing of the session in the tab: a note or a correction typed and
  // not saved either.
  if (reason === 'signed-out') window.sessionStorage.clear();
  window.sessionStorage.setItem(signOutKey, reason);
  window.location.replace('/');
}

export function signOutReason(): SignOutReason | null {
  const reason = window.sessionStorage.getItem(signOutKey);
  return reason === 'own-key-revoked' || reason === 'signed-out' ? reason : null;
}

/** Signed in again: the reason for the last sign-out is no longer news. */
export function clearSignOutReason(): void {
  window.sessionStorage.removeItem(signOutKey);
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
 * earlier exchange, else from another tab of the app that is signed in. Null means the person has to
 * paste a key.
 */
export async function loadSession(): Promise<Session | null> {
  const session = await findSession();
  current = session?.apiKey ?? null;
  if (session) {
    clearSignOutReason();
    clearReturnPath();
  }
  return session;
}

async function findSession(): Promise<Session | null> {
  const shell = bridge();
  if (shell && window.sessionStorage.getItem(shellKeyRevoked) === null) return shell.getSession();

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
    // Kept to read again as a proxy's answer, when it is not the server's.
    const raw = res.clone();
    const body = (await res.json().catch(() => ({}))) as {
      api_key?: string;
      message?: string;
      code?: string;
    };
    if (res.ok && body.api_key) {
      // Signed in again by the new address (it lands on `/`): back to the page the sign-in ended on.
      const back =
        url.pathname === '/' ? safeReturnPath(window.sessionStorage.getItem(returnKey), url.origin) : null;
      if (back) window.history.replaceState(null, '', back);
      return remember({ baseUrl: apiBase(), apiKey: body.api_key });
    }
    const stored = readStored();
    if (stored) return stored;
    // Without the server's code, a proxy's 401 would read as "this sign-in link no longer works".
    if (!res.ok && typeof body.code !== 'string') throw await errorFromResponse(raw);
    throw new SessionError(
      body.message ?? `Sign-in failed (HTTP ${res.status}).`,
      body.code ?? `http_${res.status}`,
    );
  }
  const stored = readStored();
  if (stored) return stored;
  // A link opened in a new tab, or pasted into one: a signed-in tab of this app hands its session
  // over. Not after this tab was signed out on purpose: the other tabs may hold the same revoked key.
  if (signOutReason() !== null) return null;
  const handed = await askOtherTabs();
  return handed ? remember(handed) : null;
}

/**
 * New tabs get the session from a signed-in one over a BroadcastChannel, which only pages of this
 * origin can open (the app's own pages: the CSP allows no other script), so the key stays out of
 * localStorage and cookies. A new tab asks with a random id; each signed-in tab answers that id with
 * its key; the first answer is kept. No tab open: no answer, and the sign-in screen is shown.
 */
const channelName = 'mnemo.session';
/** Long enough for a tab in the background to answer; only a tab with no session waits it out. */
const askTimeoutMs = 500;

type HandOff = { type: 'ask'; id: string } | { type: 'answer'; id: string; apiKey: string };

function randomId(): string {
  // getRandomValues, not randomUUID: the latter needs a secure context, and a LAN address is not one.
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
}

function askOtherTabs(): Promise<Session | null> {
  if (typeof BroadcastChannel === 'undefined') return Promise.resolve(null);
  const channel = new BroadcastChannel(channelName);
  const id = randomId();
  return new Promise((resolve) => {
    const done = (session: Session | null) => {
      clearTimeout(timer);
      channel.close();
      resolve(session);
    };
    const timer = setTimeout(() => done(null), askTimeoutMs);
    channel.onmessage = (e: MessageEvent<HandOff | null>) => {
      const m = e.data;
      if (m?.type === 'answer' && m.id === id && typeof m.apiKey === 'string' && m.apiKey)
        done({ baseUrl: apiBase(), apiKey: m.apiKey });
    };
    channel.postMessage({ type: 'ask', id } satisfies HandOff);
  });
}

/**
 * While this tab is signed in, it answers new tabs asking for the session (see askOtherTabs).
 * Returns the function that stops answering.
 */
export function answerSessionRequests(): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(channelName);
  channel.onmessage = (e: MessageEvent<HandOff | null>) => {
    const m = e.data;
    if (m?.type === 'ask' && typeof m.id === 'string' && current !== null)
      channel.postMessage({ type: 'answer', id: m.id, apiKey: current } satisfies HandOff);
  };
  return () => channel.close();
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
  // Copied from a request ("Authorization: Bearer sk_…", as the docs' curl lines write it), the key is
  // what follows "Bearer".
  const key = apiKey.trim().replace(/^(?:authorization:\s*)?bearer\s+/iu, '');
  return remember({ baseUrl: apiBase(), apiKey: key });
}
