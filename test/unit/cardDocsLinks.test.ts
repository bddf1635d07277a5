/**
 * A card's Learn more and Rule docs open only a link the host's own copy of that card holds: a panel message
 * naming any other URL (a page's script posting to the webview, a command: URI, a file) opens nothing and says so.
 */
import * as assert from 'assert';
import type { DevtoolsCard } from '../../src/protocol/devtoolsFacts';
import { openCardDocs } from '../../src/vscode/devtoolsCards';
import { createFakeVscode } from '../support/fakeVscode';

const RENDER_BLOCKING_DOCS = 'https://developer.chrome.com/docs/performance/insights/render-blocking';
const LABEL_DOCS = 'https://dequeuniversity.com/rules/axe/4.10/label';

const traceCard: DevtoolsCard = {
  kind: 'trace',
  trace: {
    url: 'http://127.0.0.1/',
    during: 'reload',
    actionMs: 1,
    cls: { value: 0, rating: 'good', culprits: [] },
    emulation: { throttling: 'none', cacheDisabled: false },
    insights: [{ name: 'RenderBlocking', title: 'Render-blocking requests', state: 'fail', items: [], docs: RENDER_BLOCKING_DOCS }],
  },
};
const auditCard: DevtoolsCard = {
  kind: 'audit',
  audit: {
    url: 'http://127.0.0.1/',
    engine: 'axe-core',
    passes: 1,
    incomplete: 0,
    violations: [
      { rule: 'label', impact: 'critical', help: 'Form elements must have labels', helpUrl: LABEL_DOCS, more: 0, nodes: [] },
      { rule: 'odd', impact: 'minor', help: 'A rule whose link is a command', helpUrl: 'command:workbench.action.terminal.new', more: 0, nodes: [] },
    ],
  },
};

describe("a DevTools card's documentation links", () => {
  it("open in the person's browser when the card holds them", async () => {
    const fake = createFakeVscode();
    assert.strictEqual(await openCardDocs(fake.vscode, traceCard, RENDER_BLOCKING_DOCS), true);
    assert.strictEqual(await openCardDocs(fake.vscode, auditCard, LABEL_DOCS), true);
    assert.deepStrictEqual(fake.openedExternally, [RENDER_BLOCKING_DOCS, LABEL_DOCS]);
    assert.deepStrictEqual(fake.shown, []);
  });

  it("open nothing a message names that the card does not hold: another site, a command: or file: URI, another card's link, a card no longer kept", async () => {
    const fake = createFakeVscode();
    const attempts: [DevtoolsCard | undefined, string][] = [
      [traceCard, 'https://evil.example/'],
      [traceCard, `${RENDER_BLOCKING_DOCS}?x=1`],
      [auditCard, 'command:workbench.action.terminal.new'],
      [auditCard, 'file:///etc/passwd'],
      [
        { ...auditCard, audit: { ...auditCard.audit, violations: [{ ...auditCard.audit.violations[0], helpUrl: 'https://user@evil.example/' }] } },
        'https://user@evil.example/',
      ],
      [auditCard, RENDER_BLOCKING_DOCS],
      [undefined, LABEL_DOCS],
    ];
    for (const [card, url] of attempts) assert.strictEqual(await openCardDocs(fake.vscode, card, url), false, url);
    assert.deepStrictEqual(fake.openedExternally, []);
    assert.strictEqual(fake.shown.length, attempts.length);
    assert.match(fake.shown[0].message, /nothing was opened/);
  });
});
