// Worker threads start without the parent's module hooks, so the TypeScript thread is loaded through
// tsx's API from this plain ESM file, unless a bundle of the same modules is named (the `mnemo`
// command's and `npm test`'s: scripts/build-cli.mjs), which starts in a fraction of the CPU time.
const bundle = process.env.MNEMO_DERIVE_THREAD_BUNDLE;
if (bundle) {
  const { pathToFileURL } = await import('node:url');
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./derive-thread.ts');
}
