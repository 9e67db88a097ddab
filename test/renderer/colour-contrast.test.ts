// The UI's colours, light and dark, read from renderer/styles.css: every pair of a text colour and the
// ground it is drawn on keeps WCAG AA's 4.5:1, and a focus ring or a field's edge 3:1 (WCAG 1.4.11).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const css = readFileSync(join(import.meta.dirname, '..', '..', 'renderer', 'styles.css'), 'utf8');

/** The custom properties a block sets, by name (without the leading dashes). */
function properties(block: string): Map<string, string> {
  const set = block
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d.startsWith('--'));
  return new Map(set.map((d) => [d.slice(2, d.indexOf(':')), d.slice(d.indexOf(':') + 1).trim()]));
}

const lightBlock = css.match(/^:root \{([^}]*)\}/m)?.[1];
const darkBlock = css.match(/@media \(prefers-color-scheme: dark\) \{\s*:root \{([^}]*)\}/)?.[1];
assert.ok(lightBlock && darkBlock, 'styles.css has a :root block and a dark one');
const light = properties(lightBlock);
const schemes = { light, dark: new Map([...light, ...properties(darkBlock)]) };

const channels = (hex: string): number[] => {
  const m = hex.match(/^#([0-9a-f]{6})$/i);
  assert.ok(m, `an opaque #rrggbb colour: ${hex}`);
  return [0, 2, 4].map((i) => parseInt(m[1]!.slice(i, i + 2), 16) / 255);
};
const luminance = (hex: string) => {
  const [r, g, b] = channels(hex).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
};
const contrast = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
};

/** Text drawn on a ground: [text, ground], by the names of their properties. */
const textPairs = [
  ['text', 'bg'],
  ['text', 'panel'],
  ['muted', 'bg'],
  ['muted', 'panel'],
  ['accent', 'bg'],
  ['accent', 'panel'],
  ['link-hover', 'panel'],
  ['accent', 'drop-bg'],
  ['danger', 'bg'],
  ['danger', 'panel'],
  ['danger', 'button-bg'],
  ['danger', 'danger-subtle-hover-bg'],
  ['danger', 'danger-subtle-active-bg'],
  ['danger-fill-text', 'danger-fill'],
  ['danger-fill-text', 'danger-hover'],
  ['danger-fill-text', 'danger-active'],
  ['accent-text', 'accent'],
  ['accent-text', 'accent-hover'],
  ['accent-text', 'accent-active'],
  ['ok-text', 'ok-bg'],
  ['warn-text', 'warn-bg'],
  ['notice-text', 'warn-bg'],
  ['accent', 'warn-bg'],
  ['accent', 'ok-bg'],
  ['error-text', 'error-bg'],
  ['text', 'mark'],
  ['nav-current-text', 'nav-current-bg'],
  ['text', 'field-bg'],
  ['text', 'field-disabled-bg'],
  ['text', 'button-bg'],
  ['text', 'button-hover-bg'],
  ['badge-text', 'badge-bg'],
  ['badge-muted-text', 'badge-bg'],
  ['text', 'code-bg'],
  ['chart-text', 'bg'],
  ['chart-text', 'panel'],
] as const;

/** Edges and rings that must be seen against what is around them (3:1). */
const edgePairs = [
  ['focus', 'bg'],
  ['focus', 'panel'],
  ['field-line', 'panel'],
  ['field-line', 'bg'],
] as const;

for (const [scheme, colours] of Object.entries(schemes)) {
  test(`${scheme}: every text keeps 4.5:1 on its ground, and focus rings and field edges 3:1`, () => {
    const value = (name: string) => {
      const v = colours.get(name);
      assert.ok(v, `--${name} is set`);
      return v;
    };
    const low: string[] = [];
    for (const [pairs, least] of [
      [textPairs, 4.5],
      [edgePairs, 3],
    ] as const) {
      for (const [fore, ground] of pairs) {
        const ratio = contrast(value(fore), value(ground));
        if (ratio < least) low.push(`--${fore} on --${ground}: ${ratio.toFixed(2)}:1, under ${least}:1`);
      }
    }
    assert.deepEqual(low, []);
  });
}

test('dark sets every colour light sets, so no light ground is left under light text', () => {
  const dark = properties(darkBlock);
  assert.deepEqual([...dark.keys()].sort(), [...light.keys()].sort());
  assert.ok(luminance(schemes.dark.get('bg')!) < 0.05, 'a dark ground');
  assert.match(css, /:root \{[^}]*color-scheme: light dark;/, 'form controls follow the scheme');
});
