// Child process for worker-abort.test.ts: starts loading an ONNX model in the embedding worker, aborts
// the load after the given delay, and then simply lets the process run out of work and exit.
import { createWorkerEmbedder } from '../worker-embedder.ts';

const [modelDir, delay] = [process.argv[2]!, Number(process.argv[3])];
const abort = new AbortController();
createWorkerEmbedder({ provider: 'onnx', modelDir, maxTokens: 6 }, abort.signal).then(
  (e) => e.close(),
  () => {},
);
setTimeout(() => abort.abort(), delay);
