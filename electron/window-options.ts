import type { BrowserWindowConstructorOptions } from 'electron';
import { defaultWindowSize, minWindowSize, type WindowState } from './window-state.ts';

/**
 * The one BrowserWindow configuration, hardened per Electron's security checklist: the renderer is
 * an ordinary web page (no Node), isolated from the preload, sandboxed, and unable to open other
 * windows, webviews or navigate elsewhere (main.ts enforces navigation and window.open). The size and
 * place are the ones the window had last (window-state.ts).
 */
export function windowOptions(
  preloadPath: string,
  bounds: WindowState['bounds'] = defaultWindowSize,
): BrowserWindowConstructorOptions {
  return {
    ...bounds,
    minWidth: minWindowSize.width,
    minHeight: minWindowSize.height,
    show: false,
    title: 'Mnemo',
    backgroundColor: '#f7f7f5',
    autoHideMenuBar: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      safeDialogs: true,
    },
  };
}
