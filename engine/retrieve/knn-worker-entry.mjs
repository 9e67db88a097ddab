// Worker threads start without the parent's module hooks, so the TypeScript worker is loaded through
// tsx's API from this plain ESM file.
import { register } from 'tsx/esm/api';

register();
await import('./knn-worker.ts');
