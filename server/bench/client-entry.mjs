// A benchmark's client process starts without the parent's module hooks, so its TypeScript (the module
// named by the first argument, a file URL) is loaded through tsx's API from this plain ESM file.
import { register } from 'tsx/esm/api';

register();
await import(process.argv[2]);
