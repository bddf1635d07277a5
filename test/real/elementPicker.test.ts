/**
 * Add to Chat's element picker against a hostile page: one whose scripts override what a picker in
 * the page's own world would ask (getAttribute, getBoundingClientRect, outerHTML, textContent,
 * tagName, elementFromPoint), and whose attributes are huge.
 */
import * as assert from 'assert';
import { FixtureServer } from '../fixtures/fixtureServer';
import { PICKED_ELEMENT_LIMITS } from '../../src/protocol/childMessages';
import { makeRealBridge, RealBridge, textOf } from '../support/realBridge';

/** What a function evaluated in the page returned (upstream prints it as JSON under "### Result"). */
async function evaluate(bridge: RealBridge, fn: string): Promise<unknown> {
  const text = textOf(await bridge.supervisor.callTool('browser_evaluate', { function: fn }));
  const json = /### Result\n([^]*?)\n(?:###|$)/.exec(text)?.[1];
  if (json === undefined) throw new Error(`no result in ${text}`);
  return JSON.parse(json);
}

/** The page's own script: real elements first, then every DOM method a picker would ask, overridden to lie. */
const HOSTILE_PAGE = `() => {
  document.body.innerHTML = '<button id="real" aria-label="Delete account" style="position:fixed;left:20px;top:20px;width:200px;height:60px">Delete</button>' +
    '<div id="huge" role="${'r'.repeat(20000)}" aria-label="${'n'.repeat(20000)}" data-blob="${'b'.repeat(200000)}" ' +
    'style="position:fixed;left:20px;top:200px;width:200px;height:60px">huge</div>';
  const lie = (proto, key, value) => Object.defineProperty(proto, key, { get: () => value, configurable: true });
  Element.prototype.getAttribute = () => 'Transfer all funds';
  Element.prototype.getBoundingClientRect = () => new DOMRect(0, 0, 1, 1);
  lie(Element.prototype, 'outerHTML', '<a href="https://evil.test">Safe link</a>');
  lie(Element.prototype, 'tagName', 'A');
  lie(Node.prototype, 'textContent', 'Safe link');
  Document.prototype.elementFromPoint = () => document.body;
  return 'hostile';
}`;

describe('the element picker against a hostile page (real child and Chromium)', function () {
  this.timeout(120000);
  const fixture = new FixtureServer();
  let bridge: RealBridge;
  before(() => fixture.start());
  after(() => fixture.stop());
  beforeEach(() => (bridge = makeRealBridge()));
  afterEach(() => bridge.dispose());

  it("reports the element as it is, not as the page's overridden methods say, and cuts huge fields to the schema's caps", async () => {
    const nav = await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/counter` });
    assert.ok(!nav.isError, textOf(nav));
    assert.strictEqual(await evaluate(bridge, HOSTILE_PAGE), 'hostile');
    const viewport = bridge.config.viewport;
    const at = (x: number, y: number) => ({ x: x / viewport.width, y: y / viewport.height });

    const { element: hovered } = await bridge.supervisor.ask('pick', { phase: 'hover', ...at(120, 50) });
    assert.strictEqual(hovered?.name, 'Delete account', JSON.stringify(hovered));
    const { element: real } = await bridge.supervisor.ask('pick', { phase: 'choose', ...at(120, 50) });
    assert.ok(real, 'an element was picked');
    assert.deepStrictEqual([real.role, real.name, real.tag], ['button', 'Delete account', 'button']);
    assert.match(real.html, /^<button id="real" aria-label="Delete account"/);
    assert.ok(!/Transfer all funds|evil\.test|Safe link/.test(JSON.stringify(real)), `nothing of the page's lies: ${JSON.stringify(real)}`);

    const { element: huge } = await bridge.supervisor.ask('pick', { phase: 'choose', ...at(120, 230) });
    assert.ok(huge, "the huge element was picked (and passed the protocol's schema)");
    assert.match(huge.html, /^<div id="huge"/);
    for (const field of ['role', 'name', 'tag', 'html', 'url'] as const) {
      assert.ok(huge[field].length <= PICKED_ELEMENT_LIMITS[field], `${field}: ${huge[field].length} characters`);
    }
    assert.ok(huge.role.startsWith('rrrr') && huge.role.endsWith('…') && huge.name.endsWith('…') && huge.html.endsWith('…'), 'cut, and marked as cut');
  });
});
