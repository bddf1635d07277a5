/**
 * The demo's scripted model answers what a person types, in their own words: README's questions reach
 * their turn, and a question it has no script for is said so (before, it replayed an earlier turn's answer).
 */
import * as assert from 'assert';
import { DEMO_SCENARIO, turnFor } from '../chatHelper/scenario';

describe("the demo's scripted model", () => {
  const toolsOf = (text: string) => turnFor(text, DEMO_SCENARIO)?.steps.map(step => step.tool);

  it("plays the turn a person's own words ask for", () => {
    assert.deepStrictEqual(toolsOf('why is this page slow?'), ['browser_navigate', 'bridge_performance_trace']);
    assert.deepStrictEqual(toolsOf('Can you check the Performance of the hero page?'), ['browser_navigate', 'bridge_performance_trace']);
    assert.deepStrictEqual(toolsOf('Is this page accessible?'), ['browser_navigate', 'bridge_accessibility_audit']);
    assert.deepStrictEqual(toolsOf('run an a11y audit'), ['browser_navigate', 'bridge_accessibility_audit']);
    assert.strictEqual(toolsOf(DEMO_SCENARIO[1].prompt)?.[0], 'browser_take_screenshot', "a scenario's own prompt is its turn");
  });

  it('has no turn for a question it has no script for', () => {
    assert.strictEqual(turnFor('What is the weather in Lisbon?', DEMO_SCENARIO), undefined);
  });
});
