// Worker threads start without the parent's module hooks, so a thread's plain-JavaScript entry loads
// its TypeScript module through tsx's API, unless `bundleVariable` names a bundle of the same modules
// (the `mnemo` command's and `npm test`'s: scripts/build-cli.mjs), which starts in a fraction of the CPU
// time. The desktop bundles each thread's module as its entry and never loads this file.
export async function loadThreadModule(bundleVariable, source) {
  const bundle = process.env[bundleVariable];
  if (bundle) {
    const { pathToFileURL } = await import('node:url');
    await import(pathToFileURL(bundle).href);
    return;
  }
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
}
