/**
 * The one object the Electron preload exposes as `window.mnemo` (see electron/preload.cjs, which
 * cannot import this file: a sandboxed preload is a single script). Absent in a plain browser.
 */
export interface MnemoBridge {
  /** Where the in-process server listens (ends in /v1) and the UI key minted for this run. */
  getSession(): Promise<{ baseUrl: string; apiKey: string }>;
  /** Plain-language warnings the shell wants shown, e.g. the keychain falling back to plain text. */
  getWarnings(): Promise<string[]>;
  /** Opens an http(s) link in the system browser; the shell checks the URL first. */
  openExternal(url: string): Promise<boolean>;
}

declare global {
  interface Window {
    mnemo?: MnemoBridge;
  }
}

export function bridge(): MnemoBridge | undefined {
  return typeof window !== 'undefined' ? window.mnemo : undefined;
}
