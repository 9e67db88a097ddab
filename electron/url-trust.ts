import { BlockList, isIP } from 'node:net';

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

/**
 * Addresses of this machine or its networks: loopback, private, shared (CGNAT), link-local (cloud
 * metadata at 169.254.169.254), special-purpose, benchmarking, unspecified and multicast; in IPv6 also
 * the IPv4-compatible, NAT64 and 6to4 forms of them. BlockList reads an IPv4-mapped address
 * (::ffff:127.0.0.1) by the IPv4 rules.
 */
const nearby = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['192.0.0.0', 24],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  nearby.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 96],
  ['64:ff9b::', 96],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  nearby.addSubnet(net, bits, 'ipv6');

/** Names that resolve on this machine or its network only (RFC 6761, RFC 6762, RFC 8375). */
const localName = /(?:^|\.)(?:localhost|local|internal|lan|home\.arpa|intranet|corp)$/i;

function reachesNearby(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  const family = isIP(host);
  if (family === 4) return nearby.check(host, 'ipv4');
  if (family === 6) return nearby.check(host, 'ipv6');
  // A dotless name ("intranet") is looked up on the local network too.
  return !host.includes('.') || localName.test(host);
}

/**
 * True when `url` may be handed to the system browser: http(s) only (no file:, javascript:, custom
 * protocol handlers or smb: that could launch local programs), no credentials in it, and no address
 * of this machine or its network (reachesNearby): a link in a Record must not reach a router's admin
 * page or a service on this machine through the person's browser.
 */
export function externalUrlAllowed(url: string): boolean {
  const u = parse(url);
  if (!u) return false;
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return false;
  if (u.username || u.password) return false;
  return u.hostname !== '' && !reachesNearby(u.hostname);
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
