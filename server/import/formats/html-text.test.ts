import assert from 'node:assert/strict';
import { test } from 'node:test';
import { htmlToText } from './html-text.ts';

test('a mail’s hidden preheader and its invisible padding are no part of its text', () => {
  const html = [
    '<div style="display:none;max-height:0;overflow:hidden">Your order is on its way&nbsp;&zwnj;&nbsp;&zwnj;&#847;</div>',
    '<div STYLE="DISPLAY: NONE">also hidden</div>',
    '<table><tr><td style="mso-hide:all">Outlook hides this</td></tr></table>',
    '<p hidden>not shown</p>',
    '<p>Your order from Discos &amp; Vinil shipped.&zwnj;&#8203;</p>',
  ].join('');
  assert.equal(htmlToText(html), 'Your order from Discos & Vinil shipped.');
});

test('what a script writes with zero-width characters between letters, and emoji joined, stay as written', () => {
  assert.equal(htmlToText('<p>می\u200cخواهم</p>'), 'می\u200cخواهم');
  assert.equal(htmlToText('<p>family 👨\u200d👩\u200d👧</p>'), 'family 👨\u200d👩\u200d👧');
  assert.equal(htmlToText('<p>co\u00adoperate</p>'), 'cooperate');
});
