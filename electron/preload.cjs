/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS by necessity (Electron entry, sandboxed preload, builder hook) */
// The preload of a sandboxed window: a single script (it cannot require our other files). It exposes
// one small object, `window.mnemo`, whose shape is renderer/api/bridge.ts; nothing of Node or IPC leaks.
const { contextBridge, ipcRenderer } = require('electron');

contextBridge.exposeInMainWorld(
  'mnemo',
  Object.freeze({
    getSession: () => ipcRenderer.invoke('mnemo:session'),
    getWarnings: () => ipcRenderer.invoke('mnemo:warnings'),
    openExternal: (url) => ipcRenderer.invoke('mnemo:open-external', String(url)),
  }),
);
