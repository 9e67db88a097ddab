// The scale benchmark's client process starts without the parent's module hooks, so its TypeScript is
// loaded through tsx's API from this plain ESM file.
import { register } from 'tsx/esm/api';

register();
await import('./scale-client.ts');
