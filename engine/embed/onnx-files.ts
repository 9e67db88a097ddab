import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

// The model directory's files, kept apart from onnx-model.ts so naming a model never loads onnxruntime.

/** model.onnx at the top of the directory or under onnx/, as Hugging Face repositories lay it out. */
export function findModelFile(dir: string): string {
  for (const p of [join(dir, 'model.onnx'), join(dir, 'onnx', 'model.onnx')]) if (existsSync(p)) return p;
  throw new Error(`${dir}: no model.onnx (looked in the directory and in onnx/)`);
}

/**
 * The id vectors are recorded under when the caller names none (`--embedding-model DIR`): the
 * directory's name plus a fingerprint of the weights and the tokenizer. Two models in directories of the
 * same name (".../a/model", ".../b/model") then never share a vector space, and a model replaced in
 * place is re-embedded instead of being scored against its predecessor's vectors.
 */
export function onnxModelId(dir: string): string {
  const h = createHash('sha256');
  for (const p of [findModelFile(dir), join(dir, 'tokenizer.json')]) h.update(readFileSync(p));
  return `${basename(dir)}@sha256:${h.digest('hex').slice(0, 12)}`;
}
