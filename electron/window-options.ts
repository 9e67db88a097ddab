import type { BrowserWindowConstructorOptions } from 'electron';

/**
 * The one BrowserWindow configuration, hardened per Electron's security checklist: the renderer is
 * an ordinary web page (no Node), isolated from the preload, sandboxed, and unable to open other
 * windows, webviews or navigate elsewhere (main.ts enforces navigation and window.open).
 */
export function windowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1200,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Mnemo',
    backgroundColor: '#f7f7f5',
    autoHideMenuBar: true,
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
