/**
 * Which lines of upstream's "Ran Playwright code" may go into a test. An answer carries text the page
 * chose (a title, a dialog's message, an evaluated value), so a page could try to write a code block of
 * its own; and an exported test is run at once, in Node, on the person's machine. So a line goes in only
 * when it parses as one plain Playwright statement:
 *
 *   await <chain>;   where <chain> starts at `page` or `expect(<chain>)`, and every step
 *                    is a method from the lists below with literal arguments only (strings, numbers,
 *                    booleans, arrays and objects of them, `process.env['NAME']`, or another chain).
 *
 * Anything else (a function, a regular expression, `require`, a template, `evaluate`, an address that is not
 * a web address, a method that writes or reads files such as `screenshot({ path })` or `setInputFiles`) is
 * left out of the test, and the step says so.
 */

const LOCATE = [
  'getByRole',
  'getByText',
  'getByLabel',
  'getByPlaceholder',
  'getByAltText',
  'getByTitle',
  'getByTestId',
  'locator',
  'frameLocator',
  'contentFrame',
  'first',
  'last',
  'nth',
  'filter',
  'and',
  'or',
  'owner',
];
const ACT = [
  'click',
  'dblclick',
  'fill',
  'press',
  'pressSequentially',
  'type',
  'check',
  'uncheck',
  'setChecked',
  'selectOption',
  'hover',
  'focus',
  'blur',
  'dragTo',
  'tap',
  'clear',
  'scrollIntoViewIfNeeded',
  'waitFor',
  'goto',
  'goBack',
  'goForward',
  'reload',
  'setViewportSize',
  'waitForLoadState',
  'waitForURL',
  'bringToFront',
  'dispatchEvent',
  'selectText',
];
/** Methods whose first argument is an address: only a web address or a path on the test's baseURL (never file:, data:, javascript:). */
const ADDRESSED = ['goto', 'waitForURL'];
const WEB_ADDRESS = /^['"](https?:\/\/|\/(?!\/))/i;
const DEVICES = ['keyboard', 'mouse'];
const DEVICE_ACT = ['press', 'type', 'down', 'up', 'insertText', 'click', 'dblclick', 'move', 'wheel'];
const EXPECT = [
  'toBeVisible',
  'toBeHidden',
  'toBeChecked',
  'toBeEnabled',
  'toBeDisabled',
  'toBeEditable',
  'toBeFocused',
  'toBeEmpty',
  'toBeAttached',
  'toBeInViewport',
  'toHaveText',
  'toContainText',
  'toHaveValue',
  'toHaveValues',
  'toHaveURL',
  'toHaveTitle',
  'toHaveCount',
  'toHaveAttribute',
  'toHaveClass',
  'toHaveId',
  'toHaveAccessibleName',
  'toHaveAccessibleDescription',
  'toHaveRole',
  'toMatchAriaSnapshot',
  'not',
];

type Token = { kind: 'word' | 'string' | 'number' | 'punct'; text: string };

function tokenize(line: string): Token[] | undefined {
  const tokens: Token[] = [];
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    if (ch === ' ' || ch === '\t') {
      i++;
      continue;
    }
    if (ch === "'" || ch === '"') {
      let j = i + 1;
      while (j < line.length && line[j] !== ch) {
        if (line[j] === '\\') j++;
        j++;
      }
      if (j >= line.length) return undefined;
      tokens.push({ kind: 'string', text: line.slice(i, j + 1) });
      i = j + 1;
      continue;
    }
    const word = /^[A-Za-z_$][\w$]*/.exec(line.slice(i));
    if (word) {
      tokens.push({ kind: 'word', text: word[0] });
      i += word[0].length;
      continue;
    }
    const number = /^-?\d+(\.\d+)?/.exec(line.slice(i));
    if (number) {
      tokens.push({ kind: 'number', text: number[0] });
      i += number[0].length;
      continue;
    }
    if ('.,;:()[]{}'.includes(ch)) {
      tokens.push({ kind: 'punct', text: ch });
      i++;
      continue;
    }
    // Templates, operators, regular expressions, comments in the middle: not a plain statement.
    return undefined;
  }
  return tokens;
}

class Parser {
  private at = 0;
  /** The environment variables the statement reads (secrets, as upstream writes them). */
  readonly env: string[] = [];
  constructor(private readonly tokens: Token[]) {}

  private peek(text?: string): Token | undefined {
    const token = this.tokens[this.at];
    return token && (text === undefined || token.text === text) ? token : undefined;
  }

  private take(text: string): boolean {
    if (!this.peek(text)) return false;
    this.at++;
    return true;
  }

  private word(): string | undefined {
    const token = this.tokens[this.at];
    if (token?.kind !== 'word') return undefined;
    this.at++;
    return token.text;
  }

  done(): boolean {
    return this.at === this.tokens.length;
  }

  statement(): boolean {
    return this.take('await') && this.chain() && this.take(';') && this.done();
  }

  /** page... or expect(...)... (a file chooser's files are written by specWriter.ts, never taken from an answer). */
  chain(): boolean {
    const root = this.word();
    if (root === 'expect') {
      if (!this.take('(') || !this.chain() || !this.take(')')) return false;
      return this.calls(EXPECT, true);
    }
    if (root === undefined || !/^page\d*$/.test(root)) return false;
    return this.calls([...LOCATE, ...ACT], false);
  }

  /** `.method(args)` steps from the list; `.keyboard.press(...)` for the devices. */
  private calls(allowed: string[], expecting: boolean): boolean {
    while (this.take('.')) {
      const name = this.word();
      if (name === undefined) return false;
      if (!expecting && DEVICES.includes(name)) {
        if (!this.take('.') || !DEVICE_ACT.includes(this.word() ?? '') || !this.args()) return false;
        continue;
      }
      if (!allowed.includes(name)) return false;
      // `.not` is a property, not a call.
      if (name === 'not') continue;
      if (ADDRESSED.includes(name) && !WEB_ADDRESS.test(this.tokens[this.at + 1]?.text ?? '')) return false;
      if (!this.args()) return false;
    }
    return true;
  }

  private args(): boolean {
    if (!this.take('(')) return false;
    if (this.take(')')) return true;
    do {
      if (!this.value()) return false;
    } while (this.take(','));
    return this.take(')');
  }

  private value(): boolean {
    const token = this.tokens[this.at];
    if (!token) return false;
    if (token.kind === 'string' || token.kind === 'number') {
      this.at++;
      return true;
    }
    if (token.kind === 'word') {
      if (['true', 'false', 'null', 'undefined'].includes(token.text)) {
        this.at++;
        return true;
      }
      if (token.text === 'process') return this.envRead();
      if (/^page\d*$/.test(token.text)) return this.chain();
      return false;
    }
    if (this.take('[')) {
      if (this.take(']')) return true;
      do {
        if (!this.value()) return false;
      } while (this.take(','));
      return this.take(']');
    }
    if (this.take('{')) {
      if (this.take('}')) return true;
      do {
        const key = this.tokens[this.at];
        if (!key || (key.kind !== 'word' && key.kind !== 'string')) return false;
        this.at++;
        if (!this.take(':') || !this.value()) return false;
      } while (this.take(','));
      return this.take('}');
    }
    return false;
  }

  /** process.env['NAME'] or process.env.NAME: how upstream writes a secret. */
  private envRead(): boolean {
    if (this.word() !== 'process' || !this.take('.') || this.word() !== 'env') return false;
    if (this.take('.')) {
      const name = this.word();
      if (name === undefined) return false;
      this.env.push(name);
      return true;
    }
    if (!this.take('[')) return false;
    const key = this.tokens[this.at];
    if (key?.kind !== 'string' || !/^['"][A-Za-z_]\w*['"]$/.test(key.text)) return false;
    this.env.push(key.text.slice(1, -1));
    this.at++;
    return this.take(']');
  }
}

/**
 * Whether the line is a comment of one line or one plain Playwright statement (see above), and the
 * environment variables it reads, as parsed (however it spaces `process.env[ 'NAME' ]`).
 */
export function checkPlaywrightLine(line: string): { plain: boolean; env: string[] } {
  // JavaScript ends a line (and so a comment) at these too.
  if (/[\r\u2028\u2029]/.test(line)) return { plain: false, env: [] };
  const trimmed = line.trim();
  if (trimmed.startsWith('//')) return { plain: true, env: [] };
  const tokens = tokenize(trimmed);
  if (!tokens) return { plain: false, env: [] };
  const parser = new Parser(tokens);
  return { plain: parser.statement(), env: parser.env };
}

export function isPlainPlaywrightLine(line: string): boolean {
  return checkPlaywrightLine(line).plain;
}
