import { isAppUrl, type SenderFrame } from './url-trust.ts';

/** What the preload's `getSession()` resolves to; mirrors renderer/api/bridge.ts. */
export interface UiSession {
  baseUrl: string;
  apiKey: string;
}

export const sessionChannel = 'mnemo:session';
export const warningsChannel = 'mnemo:warnings';
export const openExternalChannel = 'mnemo:open-external';

/**
 * Hands the UI key minted at start to the renderer, over IPC, only when the asking frame is the
 * app's own page in the window's top frame (a frame that navigated elsewhere, or a subframe, even one
 * of the app's origin, gets nothing: the key is admin).
 */
export function createKeyHandoff(session: UiSession, appOrigin: string) {
  return {
    sessionFor(frame: SenderFrame | null): UiSession {
      if (!frame || !frame.top || !isAppUrl(frame.url, appOrigin)) {
        throw new Error('mnemo:session is only answered to the app itself');
      }
      return { baseUrl: session.baseUrl, apiKey: session.apiKey };
    },
  };
}
