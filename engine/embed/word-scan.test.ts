import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { words } from './glove-sif.ts';
import { createWordScanner } from './word-scan.ts';

const decoder = new TextDecoder();

function scanned(scan: ReturnType<typeof createWordScanner>, text: string): string[] {
  const out: string[] = [];
  scan(text, (bytes, from, to) => out.push(decoder.decode(bytes.subarray(from, to))));
  return out;
}

/** Every code point of [from, to), each alone between spaces, surrogates left out. */
function codePointsBetweenSpaces(from: number, to: number): string {
  const parts: string[] = [];
  for (let cp = from; cp < to; cp++) if (cp < 0xd800 || cp > 0xdfff) parts.push(String.fromCodePoint(cp));
  return parts.join(' ');
}

describe('word scan', () => {
  const texts = [
    '',
    '   ',
    "Caroline's cat, RUNS!",
    "They're here; we'd've gone. I'M OK, 'TIS fine",
    "rock'n'roll ''s ' 's2 '123 abc'def x' '",
    'Room 101, 3.14, 2024-05-01, 1st 2nd 10k',
    'İstanbul İSTANBUL ıi Iı DİYARBAKIR',
    'Straße STRASSE ẞ groß GROẞ',
    'ΟΔΟΣ ΟΔΟΣ. Σ ΣΑΣ σς',
    'naïve café CAFÉ Cafe\u0301 e\u0301te\u0301',
    '日本語のテキスト 東京2020 한국어',
    'emoji 😀 🎉party👍 ❤️ love 👨‍👩‍👧 family',
    'math 𝐀𝐁𝐂 𝟏𝟐 bold, 𠀀𠀁 CJK-B, ١٢٣ ٣ digits, Ⅻ roman',
    'curly ’s don’t “quoted” — dash',
    'lone \ud800 high, lone \udc00 low, pair \ud83d\ude00 ok',
    'tab\tnew\nline\r\nCRLF\u00a0nbsp\u2028sep',
    'ǅungla ǈ ǋ Ǆ titlecase',
    'ＦＵＬＬＷＩＤＴＨ ａｂｃ１２３',
  ];

  it('splits texts into the words the regular expression finds', () => {
    const scan = createWordScanner();
    for (const text of texts) assert.deepEqual(scanned(scan, text), words(text), JSON.stringify(text));
  });

  it('classes every code point of the planes in use as the regular expression does', () => {
    const scan = createWordScanner();
    for (const [from, to] of [
      [0, 0x10000],
      [0x10000, 0x20000],
      [0x20000, 0x20400],
      [0xe0000, 0xe0200],
    ] as const) {
      const text = codePointsBetweenSpaces(from, to);
      assert.deepEqual(scanned(scan, text), words(text), `U+${from.toString(16)}..U+${to.toString(16)}`);
    }
  });

  it('splits random mixtures of letters, digits, marks, apostrophes and emoji the same way', () => {
    const pool = [
      ..."aZ09 '’-.,İıIiẞßΣσςÉé\u0301\u0307日本😀𝐀𝟏١Ⅻ\t\n",
      'A',
      "'s",
      "'RE",
      '\ud800',
      '\udfff',
      '👍🏽',
    ];
    const scan = createWordScanner();
    const text = fc.array(fc.constantFrom(...pool), { maxLength: 23 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (t) => assert.deepEqual(scanned(scan, t), words(t), JSON.stringify(t))),
      { numRuns: 3000 },
    );
  });

  it('reuses its buffer across texts of any length, long ones included', () => {
    const scan = createWordScanner();
    const long = 'Word İ '.repeat(40_000);
    const wide = '日本語 テキスト '.repeat(30_000);
    for (const text of ['Short one', long, 'After THE long', long.slice(0, 5000), wide, wide.slice(0, 900)])
      assert.deepEqual(scanned(scan, text), words(text));
  });
});
