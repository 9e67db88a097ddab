// Child process for onnx-offline.test.ts: embeds one text with an ONNX model through the embedding
// worker, as the engine does, and prints the vector's length.
import { createWorkerEmbedder } from '../worker-embedder.ts';

const embedder = await createWorkerEmbedder({ provider: 'onnx', modelDir: process.argv[2]!, maxTokens: 6 });
const [vector] = await embedder.embed(['hello world']);
console.log(vector!.length);
await embedder.close();
