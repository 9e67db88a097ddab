// Worker threads start without the parent's module hooks, so the TypeScript worker is loaded through
// tsx's API from this plain ESM file; `npm test` names a bundle of the same modules instead, which
// starts in a quarter of the CPU time (scripts/build-cli.mjs).
const bundle = process.env.MNEMO_EMBED_WORKER_BUNDLE;
if (bundle) {
  const { pathToFileURL } = await import('node:url');
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./embed-worker.ts');
}
