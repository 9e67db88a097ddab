/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS by necessity (Electron entry, sandboxed preload, builder hook) */
// electron-builder afterPack hook: flips Electron's fuses in the packaged binary so it cannot be
// turned into a general Node runtime or debugged into, and only runs an intact app.asar.
const path = require('node:path');

/** The fuse settings; exported so a unit test can check them without packaging. */
function fuseConfig() {
  const { FuseV1Options, FuseVersion } = require('@electron/fuses');
  return {
    version: FuseVersion.V1,
    [FuseV1Options.RunAsNode]: false,
    [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
    [FuseV1Options.EnableNodeCliInspectArguments]: false,
    [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
    [FuseV1Options.OnlyLoadAppFromAsar]: true,
    [FuseV1Options.EnableCookieEncryption]: true,
    [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
  };
}

function binaryPath(context) {
  const name = context.packager.appInfo.productFilename;
  switch (context.electronPlatformName) {
    case 'darwin':
    case 'mas':
      return path.join(context.appOutDir, `${name}.app`);
    case 'win32':
      return path.join(context.appOutDir, `${name}.exe`);
    default:
      return path.join(context.appOutDir, context.packager.executableName);
  }
}

async function afterPack(context) {
  const { flipFuses } = require('@electron/fuses');
  await flipFuses(binaryPath(context), {
    ...fuseConfig(),
    resetAdHocDarwinSignature: context.electronPlatformName === 'darwin' && context.arch === 3 /* arm64 */,
  });
}

module.exports = afterPack;
module.exports.default = afterPack;
module.exports.fuseConfig = fuseConfig;
module.exports.binaryPath = binaryPath;
