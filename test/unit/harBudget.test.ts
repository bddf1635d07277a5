/** Save as HAR's budget for the whole file: strings fitted by the bytes their JSON takes, room kept for every later request's stub. */
import * as assert from 'assert';
import { fitted, HAR_BUDGET, HarBudget, jsonBytes, STUB_BYTES } from '../../src/child/harBudget';

describe("a HAR's budget for the whole file", () => {
  it('fits a string by the bytes its JSON takes: escapes and UTF-8 counted, an ellipsis where it is cut, never half a surrogate pair', () => {
    assert.strictEqual(fitted('short', 100), 'short');
    for (const text of ['a'.repeat(1000), '"\\'.repeat(500), '\u0001'.repeat(500), 'é'.repeat(500), '€'.repeat(500), '😀'.repeat(500)]) {
      const cut = fitted(text, 100);
      assert.ok(jsonBytes(cut) <= 100 && jsonBytes(cut) > 90, `${JSON.stringify(text.slice(0, 4))}: ${jsonBytes(cut)} bytes`);
      assert.ok(cut.endsWith('…') && text.startsWith(cut.slice(0, -1)), 'its start, and an ellipsis');
      assert.ok(!/[\ud800-\udbff]…$/.test(cut), 'no lone half of a pair before the ellipsis');
    }
  });

  it('gives each request the room left less a stub for every request after it', () => {
    const budget = new HarBudget(3);
    const first = budget.roomFor(0);
    assert.ok(first < HAR_BUDGET - 2 * STUB_BYTES && first > HAR_BUDGET - 2 * STUB_BYTES - 4096, `${first}`);
    budget.take(first - 1);
    assert.ok(budget.roomFor(1) >= STUB_BYTES && budget.roomFor(1) < 2 * STUB_BYTES + 8, 'what is left is the room of the stubs after it, its own included');
  });
});
