/**
 * URL decisions of the shell. The app is only ever its own loopback server; anything else leaves for
 * the system browser, and only when it is an ordinary web address.
 */

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** True when `url` is a page of the app itself: same scheme, host and port as the local server. */
export function isAppUrl(url: string, appOrigin: string): boolean {
  const u = parse(url);
  const o = parse(appOrigin);
  return !!u && !!o && u.origin === o.origin && u.username === '' && u.password === '';
}

const loopbackHost = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0|\[::\])$/i;

/**
 * True when `url` may be handed to the system browser: http(s) only (no file:, javascript:, custom
 * protocol handlers or smb: that could launch local programs), no credentials in it, and neither a
 * loopback address nor a dotless local name (both reach services on this machine or network).
 */
export function externalUrlAllowed(url: string): boolean {
  const u = parse(url);
  if (!u) return false;
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return false;
  if (u.username || u.password) return false;
  if (!u.hostname || loopbackHost.test(u.hostname)) return false;
  if (!u.hostname.includes('.') && !u.hostname.startsWith('[')) return false;
  return true;
}

/** What to do with a navigation or window.open request for `url`. */
export function navigationDecision(url: string, appOrigin: string): 'allow' | 'open-external' | 'deny' {
  if (isAppUrl(url, appOrigin)) return 'allow';
  return externalUrlAllowed(url) ? 'open-external' : 'deny';
}

/** The frame an IPC message came from, as Electron's `event.senderFrame` describes it (null: gone). */
export interface SenderFrame {
  url: string;
  /** The window's top frame (`senderFrame.parent === null`), not an iframe inside it. */
  top: boolean;
}

/** An IPC event's `senderFrame` (Electron's WebFrameMain, null or gone) as the decisions read it. */
export function senderOf(frame: { url: string; parent: unknown } | null | undefined): SenderFrame | null {
  return frame ? { url: frame.url, top: frame.parent === null } : null;
}

/**
 * Whether `mnemo:open-external` may hand `url` to the system browser: asked by the app's own page in
 * its top frame, for an ordinary web address. A frame of another origin (an iframe, a page the window
 * was led to) must not start programs through the browser or open pages in the person's name.
 */
export function openExternalAllowed(
  frame: SenderFrame | null,
  url: unknown,
  appOrigin: string,
): url is string {
  if (!frame || !frame.top || !isAppUrl(frame.url, appOrigin)) return false;
  return typeof url === 'string' && externalUrlAllowed(url);
}
