/**
 * The child's budget for console and network events: a page's steady rate under the budget passes whole however
 * the events bunch on their way (a busy page or child delivers a second's worth late, with the next), while a
 * flood is held to the budget on average and what was held back is counted once.
 */
import * as assert from 'assert';
import { EventBudget } from '../../src/child/observer/eventBudget';

describe("the child's event budget", () => {
  /** A budget of 100 a second on a clock the test moves, and the counts it reports. */
  function onClock() {
    let clock = 0;
    const reported: number[] = [];
    const budget = new EventBudget(
      100,
      count => reported.push(count),
      () => clock,
    );
    return { budget, reported, at: (ms: number) => (clock = ms) };
  }

  it('passes 80 events a second whole when they come bunched: a second held up, then all at once with the next ones', () => {
    const { budget, reported, at } = onClock();
    let passed = 0;
    // Ten seconds at 80 a second, eight every 100 ms; the page (or the child) is busy from 0.5 s to 1.5 s, and that
    // second's events come at 1.5 s with that tick's own.
    for (let tick = 0; tick < 100; tick++) {
      at(tick * 100);
      if (tick >= 5 && tick < 15) continue;
      const count = tick === 15 ? 8 * 11 : 8;
      for (let i = 0; i < count; i++) if (budget.allow()) passed++;
    }
    budget.dispose();
    assert.strictEqual(passed, 800);
    assert.deepStrictEqual(reported, []);
  });

  it('holds a flood to its rate on average, after one burst, and counts what it held back', async () => {
    const { budget, reported, at } = onClock();
    let passed = 0;
    // 1,000 a second for 5 s.
    for (let ms = 0; ms < 5000; ms++) {
      at(ms);
      if (budget.allow()) passed++;
    }
    assert.ok(passed >= 600 && passed <= 700, `passed ${passed}: two seconds' worth at once, then 100 a second`);
    await new Promise(resolve => setTimeout(resolve, 1100));
    assert.strictEqual(
      reported.reduce((a, b) => a + b, 0),
      5000 - passed,
      'every event held back is counted',
    );
    budget.dispose();
  });
});
