/**
 * What `npm start` runs: the desktop app when Electron's binary is installed and there is a screen
 * to show it on, else the headless server with the UI. Pure, so scripts/start.mjs stays a wrapper.
 */
export type LaunchMode = { mode: 'electron'; binary: string } | { mode: 'headless'; reason: string };

export function chooseLaunch(input: {
  /** Path of the Electron binary, or the error requiring 'electron' threw when it is not installed. */
  electron: { path: string } | { error: string };
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  binaryExists: (path: string) => boolean;
}): LaunchMode {
  if (input.env.MNEMO_HEADLESS === '1') return { mode: 'headless', reason: 'MNEMO_HEADLESS=1 is set' };
  if ('error' in input.electron) return { mode: 'headless', reason: 'the Electron binary is not installed' };
  if (!input.binaryExists(input.electron.path)) {
    return { mode: 'headless', reason: `the Electron binary is missing at ${input.electron.path}` };
  }
  const hasDisplay =
    input.platform === 'darwin' ||
    input.platform === 'win32' ||
    !!input.env.DISPLAY ||
    !!input.env.WAYLAND_DISPLAY;
  if (!hasDisplay)
    return { mode: 'headless', reason: 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)' };
  return { mode: 'electron', binary: input.electron.path };
}
