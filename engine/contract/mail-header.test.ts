import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importedMailHeader } from './mail-header.ts';

describe('importedMailHeader', () => {
  it('finds the block of two or more header lines up to the first blank line, with its subject', () => {
    const head = 'Subject: Lunch on Friday\nFrom: Ana Horvat <ana@example.com>\nTo: You <me@example.com>';
    const text = `${head}\n\nAre we still on?`;
    assert.deepEqual(importedMailHeader(text), {
      lines: 3,
      end: head.length,
      subject: 'Lunch on Friday',
      bulk: false,
    });
    assert.equal(text.slice(importedMailHeader(text)!.end).trim(), 'Are we still on?');
    assert.deepEqual(importedMailHeader(head), {
      lines: 3,
      end: head.length,
      subject: 'Lunch on Friday',
      bulk: false,
    });
  });

  it('reads lines ended by CRLF, a block without a subject, and bulk mail', () => {
    const text = 'From: SkyScout <news@skyscout.example>\r\nPrecedence: bulk\r\n\r\n-20% this week';
    assert.deepEqual(importedMailHeader(text), {
      lines: 2,
      end: 'From: SkyScout <news@skyscout.example>\r\nPrecedence: bulk\r'.length,
      subject: null,
      bulk: true,
    });
  });

  it('is no block for one header line, a block that runs into text, or one that opens otherwise', () => {
    assert.equal(importedMailHeader('From: Lisbon, finally home\n\nSo tired.'), null);
    assert.equal(importedMailHeader('Subject: Keys\nFrom: Ana <a@x>\nthe keys are under the mat'), null);
    assert.equal(importedMailHeader('To: You <me@x>\nFrom: Ana <a@x>\n\nHi'), null);
    assert.equal(importedMailHeader('\nSubject: Keys\nFrom: Ana <a@x>\n\nHi'), null);
    assert.equal(importedMailHeader('Hi there'), null);
  });
});
