import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { firstInexactNumber, inexactNumberMessage, keptExactly } from './exact-numbers.ts';
import { walkJson } from './json-walk.ts';

describe('numbers a double keeps exactly', () => {
  it('keeps what comes back as the same decimal value, however it was written', () => {
    for (const token of [
      '0',
      '-0',
      '-0.0e5',
      '0.1',
      '1.0',
      '1e3',
      '1E+3',
      '100e-2',
      '123.456',
      '0.30000000000000004',
      '9007199254740991',
      '9007199254740992',
      '-9007199254740992',
      '1e21',
      '5e-324',
      '1.7976931348623157e308',
      '12345678901234567000',
      `1${'0'.repeat(400)}e-400`,
      '0e99999999999999999999',
      `0e-${'9'.repeat(100_000)}`,
      '1E-0',
      '-1.5e-0001',
      `1e${'0'.repeat(30)}5`,
    ])
      assert.equal(keptExactly(token), true, token);
  });

  it('refuses what would come back as another number', () => {
    for (const token of [
      '9007199254740993',
      '-9007199254740993',
      '12345678901234567890',
      '1152921504606846976', // 2^60 exactly, but written back as 1152921504606847000
      '0.1000000000000000055511151231257827',
      '1.00000000000000001',
      '123456789.123456789',
      '1e-400',
      '2e-324',
      '1e400',
      '-1e400',
      '1e-99999999999999999999',
      `1e-${'9'.repeat(100_000)}`,
      `0.${'0'.repeat(100_000)}1`,
    ])
      assert.equal(keptExactly(token), false, token);
  });

  it('agrees with writing the number back, for every integer below 1e21', () => {
    // Below 1e21 JavaScript writes an integral double out in full: the digits must be those sent.
    fc.assert(
      fc.property(fc.bigInt(-(10n ** 21n) + 1n, 10n ** 21n - 1n), (n) => {
        const token = String(n);
        assert.equal(keptExactly(token), String(Number(token)) === token, token);
      }),
      { numRuns: 2000 },
    );
  });

  it('finds nothing in any JSON JSON.stringify writes', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => firstInexactNumber(JSON.stringify(v)) === null),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (d) => keptExactly(String(d))),
    );
  });
});

describe('finding an inexact number in JSON text', () => {
  it('names its path through objects and arrays', () => {
    const found = firstInexactNumber('{"type":"t","value":{"a":[1,2,{"b":12345678901234567890}]}}');
    assert.deepEqual(found, {
      path: ['value', 'a', 2, 'b'],
      sent: '12345678901234567890',
      kept: 12345678901234567000,
    });
    assert.deepEqual(firstInexactNumber('{"value": [ 0.1 , 1e3, 9007199254740993 ]}')?.path, ['value', 2]);
    assert.deepEqual(firstInexactNumber('{"a":{},"b":[],"c":{"d":1},"e":12345678901234567890}')?.path, ['e']);
  });

  it('skips strings, also ones holding digits, quotes and backslashes, and decodes a field name', () => {
    assert.equal(firstInexactNumber('{"value":"12345678901234567890"}'), null);
    assert.equal(firstInexactNumber('{"a":"x\\"12345678901234567890\\\\","b":[true,false,null,1]}'), null);
    const found = firstInexactNumber('{"say \\"hi\\"\\\\":{"\\u00e9":12345678901234567890}}');
    assert.deepEqual(found?.path, ['say "hi"\\', 'é']);
  });

  it('searches only where it is asked to', () => {
    const json = '{"id":12345678901234567890,"params":{"arguments":{"n":9007199254740993}}}';
    assert.deepEqual(firstInexactNumber(json, (p) => p[0] === 'params')?.path, ['params', 'arguments', 'n']);
    assert.equal(
      firstInexactNumber('{"id":12345678901234567890}', (p) => p[0] === 'params'),
      null,
    );
  });

  it('says why, what the number would become, and to send it as a string', () => {
    const at = (json: string, root?: string) => inexactNumberMessage(firstInexactNumber(json)!, root);
    assert.equal(
      at('{"value":12345678901234567890}'),
      'value: 12345678901234567890 would not be kept exactly: JSON numbers are read as IEEE 754 doubles, ' +
        'which hold it only as 12345678901234567000; send it as a string to keep every digit',
    );
    assert.match(
      at('{"content":{"value":1e-400}}'),
      /^content\.value: 1e-400 would not be kept .* only as 0;/,
    );
    assert.match(
      at('{"arguments":{"n":9007199254740993}}', 'params'),
      /^params\.arguments\.n: 9007199254740993 /,
    );
    assert.equal(at('{"v":1e400}'), 'v: 1e400 is beyond the largest double (±1.7976931348623157e308)');
    const long = `1${'1'.repeat(1000)}`;
    assert.ok(at(`{"v":${long}}`).length < 600, 'a long number is shown cut');
  });
});

describe('walking a JSON text', () => {
  it('reports every name with its path and whether its object named it before, and every number as sent', () => {
    const seen: string[] = [];
    walkJson('{"a":1.50e2,"b":[{"c":-0},{"\\u0061":"x\\"1"}],"a":{"d":2}}', {
      name: (path, name, again) => (seen.push(`${path().join('.')}=${name}${again ? ' again' : ''}`), true),
      number: (path, token) => (seen.push(`${path().join('.')}:${token}`), true),
    });
    assert.deepEqual(seen, [
      'a=a',
      'a:1.50e2',
      'b=b',
      'b.0.c=c',
      'b.0.c:-0',
      'b.1.a=a',
      'a=a again',
      'a.d=d',
      'a.d:2',
    ]);
  });
});
