// The embedding worker's entry, in plain JavaScript (../thread-module.mjs says why).
import { loadThreadModule } from '../thread-module.mjs';

await loadThreadModule('MNEMO_EMBED_WORKER_BUNDLE', new URL('./embed-worker.ts', import.meta.url));
