/**
 * What the Console shows for a console call as DevTools writes it: format specifiers filled from the values
 * (src/child/observer/consoleFormat.ts), and the stack of console.error / trace / assert taken from CDP's call by
 * its type and place (ConsoleStacks in src/child/observer/uncaughtErrors.ts).
 */
import * as assert from 'assert';
import { formatConsoleCall } from '../../src/child/observer/consoleFormat';
import { ConsoleStacks } from '../../src/child/observer/uncaughtErrors';
import type { ValuePreview } from '../../src/protocol/childMessages';

const str = (text: string): ValuePreview => ({ type: 'string', text });
const num = (text: string): ValuePreview => ({ type: 'number', text });
const obj: ValuePreview = { type: 'object', className: 'Object', props: [{ name: 'a', value: num('1') }] };

describe('console format specifiers', () => {
  it('fills %s, %d, %i, %f and %o from the values after the string, and writes the rest after it', () => {
    const out = formatConsoleCall([str('%s is %d years (%i), %f m, %o'), str('Ada'), num('36.5'), num('7.9'), num('1.75'), obj, str('more')]);
    assert.strictEqual(out?.text, 'Ada is 36 years (7), 1.75 m, Object more');
    assert.deepStrictEqual(out?.args.slice(1), [str('more')], 'only the values no specifier took are shown after it');
  });

  it('drops a %c style and its value, keeps %% as a percent sign, and leaves a specifier with no value as written', () => {
    assert.strictEqual(formatConsoleCall([str('%cstyled'), str('color: red')])?.text, 'styled');
    assert.strictEqual(formatConsoleCall([str('100%% done %s')])?.text, '100% done %s');
    assert.strictEqual(formatConsoleCall([str('%d'), str('x')])?.text, 'NaN');
  });

  it('leaves a message without specifiers to its own text', () => {
    assert.strictEqual(formatConsoleCall([str('100% done'), str('yes')]), undefined);
    assert.strictEqual(formatConsoleCall([obj, str('%s')]), undefined);
    assert.strictEqual(formatConsoleCall([]), undefined);
  });
});

describe("console calls' stacks", () => {
  const frames = [
    { functionName: 'save', url: 'http://127.0.0.1:1/app.js', lineNumber: 4, columnNumber: 10 },
    { functionName: '', url: 'http://127.0.0.1:1/app.js', lineNumber: 9, columnNumber: 2 },
  ];
  it("gives console.error's stack to the message of that type and place, once, and keeps none for console.log", () => {
    const stacks = new ConsoleStacks();
    stacks.noted({ type: 'log', stackTrace: { callFrames: frames } });
    stacks.noted({ type: 'error', stackTrace: { callFrames: frames } });
    assert.strictEqual(stacks.take('log', 'http://127.0.0.1:1/app.js:5:11'), undefined);
    assert.strictEqual(stacks.take('error', 'http://127.0.0.1:1/app.js:6:11'), undefined, 'another place');
    assert.strictEqual(
      stacks.take('error', 'http://127.0.0.1:1/app.js:5:11'),
      'at save (http://127.0.0.1:1/app.js:5:11)\nat (anonymous) (http://127.0.0.1:1/app.js:10:3)',
    );
    assert.strictEqual(stacks.take('error', 'http://127.0.0.1:1/app.js:5:11'), undefined, 'taken once');
  });
});
