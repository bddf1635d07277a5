/**
 * What the extension host keeps of calls, on the real parts: a real child and Chromium behind the MCP door,
 * with the step journal, time travel's timeline and the panel's store attached as the extension attaches
 * them. 60 calls with 3 MB arguments, refused, keep a short record each; a call that worked keeps at most
 * MAX_KEPT_ARGS_BYTES of its arguments (src/core/egress/byteBounds.ts).
 */
import * as assert from 'assert';
import { keptBytes, MAX_KEPT_ARGS_BYTES, MAX_KEPT_LINE_CHARS, REFUSED_ARGS_BYTES } from '../../src/core/egress/byteBounds';
import { KeepingBridge, keepingBridge, sendRefusedCalls } from '../harden/egress';

/** Room for the marker a cut leaves. */
const MARKER_SLACK = 1024;
/** A refused step whole: the tool, a few hundred bytes of arguments, the error line, the step's own fields. */
const REFUSED_STEP_BYTES = 4096;

describe('what the host keeps of refused 3 MB calls (real child, Chromium, MCP door and language-model path)', function () {
  this.timeout(180000);
  let rig: KeepingBridge;
  before(async () => {
    rig = await keepingBridge();
    await rig.bridge.supervisor.callTool('browser_navigate', { url: 'about:blank' });
  });
  after(() => rig?.dispose());

  it('60 refused calls keep a short record each in the journal, the timeline and the store', async () => {
    const [journalBefore, timelineBefore, storeBefore] = [rig.journal.steps.length, rig.timeline.steps.length, rig.store.keptBytes];
    const timelineBytesBefore = rig.timeline.keptBytes;
    assert.strictEqual(await sendRefusedCalls(rig, 60), 0, 'every call was refused for its size');
    const steps = rig.journal.steps.slice(journalBefore);
    const timelineSteps = rig.timeline.steps.slice(timelineBefore);
    assert.strictEqual(steps.length, 60);
    assert.strictEqual(timelineSteps.length, 60);
    for (const step of [...steps, ...timelineSteps]) {
      assert.strictEqual(step.tool, 'browser_type');
      assert.strictEqual(step.ok, false);
      assert.ok(keptBytes(step.args) <= REFUSED_ARGS_BYTES + MARKER_SLACK, `${keptBytes(step.args)} bytes of arguments kept`);
      assert.match(String(step.args.text), /more characters cut\)$/);
      assert.ok(step.error && step.error.length <= MAX_KEPT_LINE_CHARS && /bytes per call/.test(step.error), step.error);
    }
    const journalBytes = keptBytes(steps);
    assert.ok(journalBytes <= 60 * REFUSED_STEP_BYTES, `the journal keeps ${journalBytes} bytes of the 60 refused steps`);
    const timelineBytes = rig.timeline.keptBytes - timelineBytesBefore;
    assert.ok(timelineBytes <= 60 * REFUSED_STEP_BYTES, `the timeline counts ${timelineBytes} more bytes`);
    const storeBytes = rig.store.keptBytes - storeBefore;
    assert.ok(storeBytes <= 60 * REFUSED_STEP_BYTES, `the store keeps ${storeBytes} more bytes`);
    console.log(`      60 refused 3 MB calls: journal ${journalBytes} bytes, timeline ${timelineBytes}, store ${storeBytes}`);
  });

  it('a call that worked with 400 KB of arguments keeps at most MAX_KEPT_ARGS_BYTES of them, cut with a marker', async () => {
    const script = `() => ${JSON.stringify('y'.repeat(400_000))}.length`;
    const result = await rig.bridge.supervisor.callTool('browser_evaluate', { function: script });
    assert.ok(!result.isError, JSON.stringify(result).slice(0, 300));
    const [step, timelineStep] = [rig.journal.steps.at(-1)!, rig.timeline.steps.at(-1)!];
    for (const kept of [step, timelineStep]) {
      assert.strictEqual(kept.ok, true);
      assert.ok(keptBytes(kept.args) <= MAX_KEPT_ARGS_BYTES + MARKER_SLACK, `${keptBytes(kept.args)} bytes of arguments kept`);
      assert.match(String(kept.args.function), /more characters cut\)$/);
    }
    assert.strictEqual(step.argsCut, true);
  });
});
