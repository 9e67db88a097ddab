/**
 * How long the `ui:` line's token signs in. The line goes to stderr, which often outlives the moment:
 * a service manager's journal, CI output, a shared terminal's scrollback; anyone who reads it there
 * before the person opens it would get an admin key. Ten minutes is ample to open a link just printed
 * (or copy it to a browser elsewhere on this machine), and a line found later signs no one in.
 */
export const uiTokenTtlMs = 10 * 60_000;

/** "10 minutes", "1 minute", "300 ms": a sign-in link's lifetime as the person reads it. */
export function durationWords(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return ms === 60_000 ? '1 minute' : `${ms / 60_000} minutes`;
  if (ms >= 1000 && ms % 1000 === 0) return ms === 1000 ? '1 second' : `${ms / 1000} seconds`;
  return `${ms} ms`;
}
