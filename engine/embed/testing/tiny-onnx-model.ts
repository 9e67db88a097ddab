import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes a tiny sentence-transformers-shaped model for tests: a BERT WordPiece tokenizer.json and a
 * model.onnx whose encoder is a single Gather (token id -> embedding row), with the inputs and the
 * `last_hidden_state` output a real export has. The protobuf is written by hand (a few dozen lines)
 * so tests need no ONNX tooling; the same loader as for real models then reads it.
 */
export const TINY_VOCAB = [
  '[PAD]',
  '[UNK]',
  '[CLS]',
  '[SEP]',
  'the',
  'cat',
  'sat',
  'on',
  'mat',
  'dog',
  'run',
  '##ning',
  '##s',
  'a',
];

/** Row i of the embedding table: deterministic, distinct per token. */
export function tinyEmbeddingRow(i: number, dims: number): number[] {
  return Array.from({ length: dims }, (_, k) => Math.sin((i + 1) * (k + 1) * 0.7) + (k === i % dims ? 1 : 0));
}

function varint(n: number | bigint): number[] {
  let v = BigInt(n);
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return out;
}

type Field = [num: number, value: number | bigint | string | Uint8Array | number[]];

/** Encodes fields in order: numbers as varints, strings/bytes/messages as length-delimited. */
function msg(fields: Field[]): Uint8Array {
  const out: number[] = [];
  for (const [num, value] of fields) {
    if (typeof value === 'number' || typeof value === 'bigint') {
      out.push(...varint((num << 3) | 0), ...varint(value));
    } else {
      const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : Uint8Array.from(value);
      out.push(...varint((num << 3) | 2), ...varint(bytes.length), ...bytes);
    }
  }
  return Uint8Array.from(out);
}

const INT64 = 7;
const FLOAT = 1;

function tensorType(elem: number, dims: Array<string | number>): Uint8Array {
  const shape = msg(dims.map((d) => [1, typeof d === 'string' ? msg([[2, d]]) : msg([[1, d]])] as Field));
  return msg([
    [
      1,
      msg([
        [1, elem],
        [2, shape],
      ]),
    ],
  ]);
}

function valueInfo(name: string, elem: number, dims: Array<string | number>): Uint8Array {
  return msg([
    [1, name],
    [2, tensorType(elem, dims)],
  ]);
}

/** model.onnx bytes: Gather(embeddings, input_ids) -> last_hidden_state [batch, seq, dims]. */
export function tinyOnnxBytes(dims: number, vocabSize = TINY_VOCAB.length): Uint8Array {
  const table = new Float32Array(vocabSize * dims);
  for (let i = 0; i < vocabSize; i++) table.set(tinyEmbeddingRow(i, dims), i * dims);
  const initializer = msg([
    [1, vocabSize],
    [1, dims],
    [2, FLOAT],
    [8, 'embeddings'],
    [9, new Uint8Array(table.buffer)],
  ]);
  const node = msg([
    [1, 'embeddings'],
    [1, 'input_ids'],
    [2, 'last_hidden_state'],
    [3, 'gather'],
    [4, 'Gather'],
  ]);
  const graph = msg([
    [1, node],
    [2, 'tiny'],
    [5, initializer],
    [11, valueInfo('input_ids', INT64, ['batch', 'sequence'])],
    [11, valueInfo('attention_mask', INT64, ['batch', 'sequence'])],
    [12, valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', dims])],
  ]);
  return msg([
    [1, 7],
    [2, 'mnemo-test'],
    [7, graph],
    [
      8,
      msg([
        [1, ''],
        [2, 13],
      ]),
    ],
  ]);
}

/** A BERT-style tokenizer.json over TINY_VOCAB: lower-casing, WordPiece, [CLS] ... [SEP]. */
export function tinyTokenizerJson(): Record<string, unknown> {
  const special = (id: number, content: string) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(0, '[PAD]'), special(1, '[UNK]'), special(2, '[CLS]'), special(3, '[SEP]')],
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(TINY_VOCAB.map((t, i) => [t, i])),
    },
  };
}

/** Writes model.onnx and tokenizer.json into `dir` (created if needed); returns `dir`. */
export function writeTinyModel(dir: string, dims = 8): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'model.onnx'), tinyOnnxBytes(dims));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tinyTokenizerJson()));
  writeFileSync(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({
      do_lower_case: true,
      model_max_length: 512,
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      pad_token: '[PAD]',
      unk_token: '[UNK]',
    }),
  );
  return dir;
}
