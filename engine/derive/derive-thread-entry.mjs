// The derive thread's entry, in plain JavaScript (../thread-module.mjs says why).
import { loadThreadModule } from '../thread-module.mjs';

await loadThreadModule('MNEMO_DERIVE_THREAD_BUNDLE', new URL('./derive-thread.ts', import.meta.url));
