/** The start of a JSON body pretty-printed without printing all of it: the same text JSON.stringify(JSON.parse(…), null, 2) begins with. */
import * as assert from 'assert';
import { prettyJsonStart } from '../../src/child/prettyJson';

const SAMPLES = [
  '{"a":1,"b":[1,2,{"c":null}],"d":{},"e":[],"f":"x\\"y\\\\z","g":true}',
  ' [ 1 , 2.50 , -0 , 1e3 , 1E-2 , "\\u0041\\u00e9\\ud83d\\ude00\\n" ] ',
  '"just a string"',
  '{"nested":{"deeper":{"deepest":[[[]],[{}]]}}}',
  JSON.stringify({ rows: Array.from({ length: 300 }, (_, i) => ({ id: i, name: `row ${i}`, tags: ['a', 'b'] })) }),
];

describe('the start of a JSON body, pretty-printed', () => {
  it('is exactly what JSON.stringify prints, whole or cut at any length', () => {
    for (const raw of SAMPLES) {
      const expected = JSON.stringify(JSON.parse(raw), null, 2);
      assert.deepStrictEqual(prettyJsonStart(raw, 1e9), { text: expected, whole: true }, raw.slice(0, 60));
      for (const max of [1, 7, 40, 333, expected.length - 1].filter(max => max < expected.length)) {
        const start = prettyJsonStart(raw, max)!;
        assert.strictEqual(start.text, expected.slice(0, max), `${raw.slice(0, 40)} cut at ${max}`);
        assert.strictEqual(start.whole, false);
      }
    }
  });

  it('decodes escapes as JSON.parse does (a secret spelled \\u0041… comes out plain, for the mask to find)', () => {
    assert.strictEqual(prettyJsonStart('{"k":"p\\u00E4ss\\u0026"}', 100)!.text, '{\n  "k": "päss&"\n}');
  });

  it('gives up on what is not JSON, and on nesting no one reads', () => {
    for (const raw of ['{"a":1,}', '{"a":[1', '[1 2', '{"a":01}', 'nope', '{"a":"unterminated', '}'])
      assert.strictEqual(prettyJsonStart(raw, 1000), undefined, raw);
    assert.strictEqual(prettyJsonStart('['.repeat(500) + ']'.repeat(500), 1e6), undefined);
  });
});
