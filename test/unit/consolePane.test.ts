/**
 * The Console pane's pure parts, as a Chrome DevTools user reads them: a logged object's preview (captured,
 * bounded, worded on one line), long messages folded, uncaught errors with their heading, stack and place,
 * the badge's counts, and the host's list cleared by a navigation of the watched tab, by Clear, or kept.
 */
import * as assert from 'assert';
import { LiveViewStore } from '../../src/core/liveView/liveViewStore';
import { VALUE_PREVIEW_LIMITS, type ValuePreview } from '../../src/protocol/childMessages';
import type { ConsoleRow, HostToPanel, MarkerRow } from '../../src/protocol/panelMessages';
import { isMarker } from '../../src/protocol/panelRows';
import { boundPreview, previewInPage } from '../../src/child/observer/valuePreview';
import { fromExceptionThrown, uncaughtError } from '../../src/child/observer/uncaughtErrors';
import { countProblems, foldText, previewLine, shortLocation } from '../../src/webview/consoleText';
import { fakeLiveViewSource } from '../support/liveViewSource';

const capture = (...values: unknown[]) => boundPreview(previewInPage(undefined, { values, limits: VALUE_PREVIEW_LIMITS }));

/** Every node of a preview, counted. */
const nodeCount = (preview: ValuePreview): number => 1 + (preview.props ?? []).reduce((sum, prop) => sum + nodeCount(prop.value), 0);

describe('the Console pane as a DevTools user reads it', () => {
  describe('a logged object', () => {
    it('reads on one line as DevTools shows it, nested objects shortened, and unfolds to its properties', () => {
      const [object, array, text, map] = capture({ a: 1, b: { c: 2 }, s: 'x' }, [1, 'two', null], 'plain', new Map([['k', 1]]));
      assert.strictEqual(previewLine(object), "{a: 1, b: {…}, s: 'x'}");
      assert.strictEqual(previewLine(array), "(3) [1, 'two', null]");
      assert.strictEqual(previewLine(text), 'plain', 'a logged string reads as it is');
      assert.strictEqual(previewLine(map), "Map(1) {'k' => 1}");
      const nested = object.props!.find(p => p.name === 'b')!.value;
      assert.strictEqual(previewLine(nested), '{c: 2}', 'one level further down');
      assert.deepStrictEqual(
        object.props!.map(p => p.name),
        ['a', 'b', 's'],
      );
    });

    it('never calls a getter, and says more than five properties with …', () => {
      let called = false;
      const withGetter = {
        get secret() {
          called = true;
          return 1;
        },
        a: 1,
        b: 2,
        c: 3,
        d: 4,
        e: 5,
        f: 6,
      };
      const [preview] = capture(withGetter);
      assert.strictEqual(called, false);
      assert.strictEqual(previewLine(preview), '{secret: (...), a: 1, b: 2, c: 3, d: 4, …}');
    });

    it('is bounded however big or deep the value, and whatever the page made the capture return', () => {
      const huge = Array.from({ length: 10000 }, (_, i) => ({ i, text: 'y'.repeat(5000), deeper: { deeper: { deeper: { deeper: 1 } } } }));
      const [preview] = capture(huge);
      assert.ok(nodeCount(preview) <= VALUE_PREVIEW_LIMITS.nodes + 1, `${nodeCount(preview)} nodes`);
      assert.ok(JSON.stringify(preview).length < 40000, `${JSON.stringify(preview).length} characters`);
      assert.strictEqual(preview.size, 10000);
      assert.ok((preview.more ?? 0) > 9000, 'says how many were left out');
      // A hostile page's answer: endless strings and nesting, wrong shapes.
      let deep: unknown = { type: 'object', text: 'z'.repeat(1e6), props: [] };
      for (let i = 0; i < 1000; i++) deep = { type: 'object', props: [{ name: 'n'.repeat(1e5), value: deep }] };
      const [bounded, odd] = boundPreview([deep, { type: 'script', text: 5 }]);
      assert.ok(JSON.stringify(bounded).length < 2000, 'cut to the depth and characters allowed');
      assert.deepStrictEqual(odd, { type: 'undefined', text: '(...)' });
    });
  });

  describe('a long message', () => {
    it('folds to its first lines, saying how much is folded, and leaves a short one whole', () => {
      const long = 'x'.repeat(1600);
      assert.deepStrictEqual(foldText(long), { head: 'x'.repeat(400), hiddenChars: 1200 });
      assert.deepStrictEqual(foldText('a\nb\nc\nd\ne\nf\ng'), { head: 'a\nb\nc\nd\ne', hiddenChars: 4 });
      assert.strictEqual(foldText('short'), undefined);
    });
  });

  describe('an uncaught error', () => {
    it('has its stack and the place of its first frame', () => {
      const error = uncaughtError('Uncaught', 'TypeError: boom\n    at f (http://127.0.0.1:9/app.js:3:9)\n    at http://127.0.0.1:9/app.js:5:1');
      assert.deepStrictEqual(error, {
        text: 'Uncaught TypeError: boom',
        stack: 'at f (http://127.0.0.1:9/app.js:3:9)\nat http://127.0.0.1:9/app.js:5:1',
        location: 'http://127.0.0.1:9/app.js:3:9',
      });
      assert.strictEqual(shortLocation(error.location!), 'app.js:3:9');
    });

    it('reads "Uncaught (in promise)" for a rejection nobody handled, as CDP names it', () => {
      const rejection = fromExceptionThrown({
        exceptionDetails: {
          text: 'Uncaught (in promise)',
          lineNumber: 4,
          columnNumber: 10,
          exception: { type: 'object', description: 'Error: nope\n    at http://127.0.0.1:9/app.js:5:11' },
          stackTrace: { callFrames: [{ url: 'http://127.0.0.1:9/app.js', lineNumber: 4, columnNumber: 10 }] },
        },
      });
      assert.strictEqual(rejection.text, 'Uncaught (in promise) Error: nope');
      assert.strictEqual(rejection.location, 'http://127.0.0.1:9/app.js:5:11');
      const value = fromExceptionThrown({
        exceptionDetails: { text: 'Uncaught (in promise)', lineNumber: 0, columnNumber: 0, exception: { type: 'number', value: 42 } },
      });
      assert.strictEqual(value.text, 'Uncaught (in promise) 42');
    });
  });

  describe("the host's list", () => {
    const setup = () => {
      const { events, observations } = fakeLiveViewSource();
      (events as { tabs: unknown }).tabs = [{ id: 'p1', url: 'http://127.0.0.1/', title: '', current: true }];
      const store = new LiveViewStore(events, () => 'Chromium');
      const log = (text: string, level: 'error' | 'warning' | 'info' = 'error', pageId = 'p1') =>
        observations.fire({ kind: 'console', entry: { level, text, pageId, time: 0 } });
      const navigate = (pageId = 'p1') => observations.fire({ kind: 'navigated', pageId, url: 'http://127.0.0.1/next' });
      const rows = () => store.snapshot().console;
      const texts = () => rows().map(row => (isMarker(row) ? `[${row.marker}]` : row.text));
      return { store, observations, log, navigate, rows, texts };
    };

    it('starts again when the watched tab navigates, not when another tab does; the badge counts what is listed', () => {
      const { store, log, navigate, rows, texts } = setup();
      const sent: HostToPanel[] = [];
      store.onMessage(message => sent.push(message));
      log('old error');
      log('old warning', 'warning');
      assert.deepStrictEqual(countProblems(rows()), { errors: 1, warnings: 1 });
      navigate('p2');
      assert.deepStrictEqual(texts(), ['old error', 'old warning'], "another tab's navigation leaves the list");
      navigate();
      assert.deepStrictEqual(texts(), [], 'cleared, with no line (DevTools without Preserve log)');
      assert.deepStrictEqual(countProblems(rows()), { errors: 0, warnings: 0 });
      const last = sent.at(-1) as Extract<HostToPanel, { type: 'console' }>;
      assert.deepStrictEqual([last.type, last.rows.length, last.dropBefore > 1], ['console', 0, true], 'the panels drop every row');
      log('new error');
      assert.deepStrictEqual(texts(), ['new error']);
      store.dispose();
    });

    it('keeps the lines across navigations with Preserve log, with a "Navigated to" line; Clear empties it', () => {
      const { store, log, navigate, rows, texts } = setup();
      store.setPreserveConsole(true);
      assert.strictEqual(store.state().console.preserveLog, true);
      log('before');
      navigate();
      log('after');
      assert.deepStrictEqual(texts(), ['before', '[Navigated to http://127.0.0.1/next]', 'after']);
      store.clearConsole();
      assert.deepStrictEqual(texts(), ['[Console was cleared]']);
      assert.deepStrictEqual(countProblems(rows() as (ConsoleRow | MarkerRow)[]), { errors: 0, warnings: 0 });
      store.dispose();
    });

    it("keeps a logged object's preview and an error's stack for the panel", () => {
      const { store, observations, rows } = setup();
      const args = capture({ a: 1 });
      observations.fire({ kind: 'console', entry: { level: 'error', text: 'Uncaught Error: x', stack: 'at f (a.js:1:2)', args, pageId: 'p1', time: 0 } });
      const [row] = rows() as ConsoleRow[];
      assert.deepStrictEqual([row.stack, row.args], ['at f (a.js:1:2)', args]);
      store.dispose();
    });
  });
});
