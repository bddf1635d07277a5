/**
 * The upstream check sorts what a release changes: a tool added or gone, a parameter added, gone or changed (key
 * order is not a change), a newly required one, a reworded description, changed annotations, flags and config
 * keys; and it reads flags from commander's help and config keys from config.d.ts, nested keys dotted.
 */
import * as assert from 'assert';
import { compareCode, compareSurfaces } from '../upstream/upstreamDiff';
import { configKeysOf, flagsOf, type UpstreamSurface } from '../upstream/upstreamSurface';

describe('the upstream check: what a release changes', () => {
  const tool = (name: string, properties: Record<string, unknown>, extra: { description?: string; required?: string[]; readOnlyHint?: boolean } = {}) => ({
    name,
    description: extra.description ?? `${name} does it`,
    inputSchema: { type: 'object', properties, ...(extra.required ? { required: extra.required } : {}) },
    annotations: { readOnlyHint: extra.readOnlyHint ?? false },
  });
  const surface = (version: string, tools: UpstreamSurface['tools'], flags: Record<string, string> = {}, configKeys: string[] = []): UpstreamSurface => ({
    version,
    tools,
    flags,
    configKeys,
  });

  it('sorts each change by kind, keyed for its decision', () => {
    const pinned = surface(
      '0.0.83',
      [
        tool('browser_tabs', { action: { type: 'string' }, index: { type: 'number' } }),
        tool('browser_wait_for', { time: { type: 'number', description: 'seconds' } }),
        tool('browser_old', {}),
      ],
      { '--headless': 'run headless', '--caps <caps>': 'x' },
      ['browser', 'browser.isolated'],
    );
    const candidate = surface(
      '0.0.86',
      [
        tool('browser_tabs', { index: { type: 'number' }, action: { type: 'string' }, isolatedContext: { type: 'string' } }),
        tool('browser_wait_for', { time: { type: 'number', description: 'timeout' } }, { description: 'Wait', required: ['time'], readOnlyHint: true }),
        tool('browser_new', {}),
      ],
      { '--headless': 'run headless', '--redact-url-params': 'hide them' },
      ['browser', 'browser.isolated', 'network.redact'],
    );
    assert.deepStrictEqual(
      compareSurfaces(pinned, candidate).map(change => change.key),
      [
        'removedTool:browser_old',
        'newParameter:browser_tabs.isolatedContext',
        'changedDescription:browser_wait_for',
        'changedAnnotations:browser_wait_for',
        'changedParameter:browser_wait_for.time',
        'changedRequired:browser_wait_for',
        'newTool:browser_new',
        'removedFlag:--caps <caps>',
        'newFlag:--redact-url-params',
        'newConfigKey:network.redact',
      ],
    );
    assert.deepStrictEqual(compareSurfaces(pinned, pinned), [], 'a release against itself changes nothing');
  });

  it("reads flags from commander's help, a flag's text across its lines", () => {
    const help = [
      'Usage: Playwright MCP [options]',
      '',
      'Options:',
      '  -V, --version                         output the version number',
      '  --allowed-hosts <hosts...>            comma-separated list of hosts this',
      '                                        server is allowed to serve from.',
      '  --headless                            run browser in headless mode',
      '  -h, --help                            display help for command',
    ].join('\n');
    assert.deepStrictEqual(flagsOf(help), {
      '--version': 'output the version number',
      '--allowed-hosts': 'comma-separated list of hosts this server is allowed to serve from.',
      '--headless': 'run browser in headless mode',
      '--help': 'display help for command',
    });
  });

  it('reads the config file keys from config.d.ts, nested ones dotted, comments skipped', () => {
    const declarations = `
export type ToolCapability = 'core' | 'vision';
export type Config = {
  /** The browser to use. { not: a key } */
  browser?: {
    browserName?: 'chromium' | 'firefox';
    launchOptions?: playwright.LaunchOptions;
  },
  // server: { port: 1 }
  network?: {
    allowedOrigins?: string[];
  };
  outputDir?: string;
};
export type Other = { ignored: boolean };`;
    assert.deepStrictEqual(configKeysOf(declarations), [
      'browser',
      'browser.browserName',
      'browser.launchOptions',
      'network',
      'network.allowedOrigins',
      'outputDir',
    ]);
  });

  it('sorts the code two releases generate at the same steps: one change per tool, each distinct before and after once, with its steps', () => {
    const code = (entries: [string, string, string][]) => new Map(entries.map(([step, tool, text]) => [step, { tool, code: text }]));
    const changes = compareCode(
      code([
        ['core / close', 'browser_close', 'await page.close()'],
        ['pdf / close', 'browser_close', 'await page.close()'],
        ['core / click', 'browser_click', "await page.getByRole('button').click();"],
        ['core / gone', 'browser_hover', 'await page.hover()'],
      ]),
      code([
        ['core / close', 'browser_close', 'await browser.close();'],
        ['pdf / close', 'browser_close', 'await browser.close();'],
        ['core / click', 'browser_click', "await page.getByRole('button').click();"],
      ]),
    );
    assert.deepStrictEqual(
      changes.map(c => [c.key, c.subject, c.before, c.after]),
      [
        ['changedCode:browser_close', 'browser_close (at core / close; pdf / close)', 'await page.close()', 'await browser.close();'],
        ['changedCode:browser_hover', 'browser_hover (at core / gone)', 'await page.hover()', '(none)'],
      ],
    );
  });
});
