import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Embedder } from './embedder.ts';
import { dot } from './embedder.ts';
import { TINY_VOCAB, tinyEmbeddingRow, writeTinyModel } from './testing/tiny-onnx-model.ts';
import { onnxModelId } from './onnx-files.ts';
import { createWorkerEmbedder } from './worker-embedder.ts';

const DIMS = 8;

/** What sentence-transformers computes: mean of the token rows, then unit length. */
function expected(tokens: string[]): number[] {
  const sum = new Array<number>(DIMS).fill(0);
  for (const t of tokens)
    tinyEmbeddingRow(TINY_VOCAB.indexOf(t), DIMS).forEach((x, k) => (sum[k]! += x / tokens.length));
  const n = Math.hypot(...sum);
  return sum.map((x) => x / n);
}

function close(a: Float32Array, b: number[]): void {
  assert.equal(a.length, b.length);
  for (let i = 0; i < b.length; i++)
    assert.ok(Math.abs(a[i]! - b[i]!) < 1e-5, `component ${i}: ${a[i]} vs ${b[i]}`);
}

describe('onnx embedder (tiny generated model, in a worker thread)', () => {
  let dir: string;
  let e: Embedder;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mnemo-onnx-'));
    e = await createWorkerEmbedder({
      provider: 'onnx',
      modelDir: writeTinyModel(join(dir, 'tiny-model'), DIMS),
      maxTokens: 6,
    });
  });
  after(async () => {
    await e.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('announces provider, model id and the output width it found', () => {
    assert.deepEqual([e.provider, e.dims], ['onnx', DIMS]);
    assert.match(e.model, /^tiny-model@sha256:[0-9a-f]{12}$/);
  });

  it('names a model by its directory and its content: same name, other weights, another id', () => {
    const same = onnxModelId(writeTinyModel(join(dir, 'copy', 'tiny-model'), DIMS));
    const wider = onnxModelId(writeTinyModel(join(dir, 'other', 'tiny-model'), DIMS + 4));
    assert.equal(same, e.model);
    assert.notEqual(wider, e.model);
    assert.match(wider, /^tiny-model@sha256:/);
  });

  it('tokenizes with WordPiece, mean-pools over the tokens and normalises', async () => {
    const [v] = await e.embed(['The cats']);
    close(v!, expected(['[CLS]', 'the', 'cat', '##s', '[SEP]']));
    assert.ok(Math.abs(dot(v!, v!) - 1) < 1e-5);
  });

  it('gives each text of a padded batch the vector it gets alone', async () => {
    const texts = ['dog', 'the cat sat on', 'running'];
    const batch = await e.embed(texts);
    for (let i = 0; i < texts.length; i++) close(batch[i]!, [...(await e.embed([texts[i]!]))[0]!]);
    close(batch[2]!, expected(['[CLS]', 'run', '##ning', '[SEP]']));
  });

  it('cuts long inputs to maxTokens, keeping the closing [SEP]', async () => {
    const [v] = await e.embed(['the cat sat on the mat']);
    close(v!, expected(['[CLS]', 'the', 'cat', 'sat', 'on', '[SEP]']));
  });

  it('answers an empty batch without calling the model', async () => {
    assert.deepEqual(await e.embed([]), []);
  });
});

describe('worker embedder failures', () => {
  it('rejects with the loader message when the model directory holds no model', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mnemo-onnx-'));
    try {
      await assert.rejects(
        createWorkerEmbedder({ provider: 'onnx', modelDir: dir }),
        /no tokenizer\.json|no model\.onnx/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
