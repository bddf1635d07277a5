import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Tool } from '@modelcontextprotocol/sdk/types.js';
import { ALL_CAPABILITIES } from '../../src/core/settings/capabilities';
import {
  buildManifest,
  capabilityHint,
  capabilityOfTools,
  diffManifests,
  isToolEnabled,
  ManifestTool,
  manifestEntry,
  capabilityOf,
} from '../../src/core/tools/toolManifest';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const packageJson = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const manifest: ManifestTool[] = packageJson.contributes.languageModelTools;

const navigate: Tool = {
  name: 'browser_navigate',
  description: 'Navigate to a URL',
  inputSchema: {
    type: 'object',
    properties: { url: { type: 'string' } },
    required: ['url'],
    $schema: 'https://json-schema.org/draft/2020-12/schema',
  } as Tool['inputSchema'],
  annotations: { title: 'Navigate to a URL', readOnlyHint: false },
};

describe('tool manifest generation', () => {
  it('maps a tool to a manifest entry with its schema and no $schema key', () => {
    const entry = manifestEntry(navigate, undefined);
    assert.deepStrictEqual(entry, {
      name: 'browser_navigate',
      displayName: 'Navigate to a URL',
      toolReferenceName: 'browser_navigate',
      canBeReferencedInPrompt: true,
      userDescription: 'Navigate to a URL',
      modelDescription: 'Navigate to a URL',
      tags: ['playwright', 'browser'],
      inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
      when: "config.playwrightBridge.exposure != 'mcp' && !playwrightBridge.toolOff.browser_navigate",
    });
  });

  it('gates a capability tool behind its setting', () => {
    const owners = capabilityOfTools(['browser_navigate'], new Map([['pdf', ['browser_navigate', 'browser_pdf_save']]]));
    assert.strictEqual(owners.get('browser_navigate'), undefined);
    assert.strictEqual(owners.get('browser_pdf_save'), 'pdf');
    const [pdf] = buildManifest([{ ...navigate, name: 'browser_pdf_save' }], owners);
    assert.strictEqual(
      pdf.when,
      "config.playwrightBridge.capabilities.pdf && config.playwrightBridge.exposure != 'mcp' && !playwrightBridge.toolOff.browser_pdf_save",
    );
    assert.strictEqual(isToolEnabled(pdf, []), false);
    assert.strictEqual(isToolEnabled(pdf, ['pdf']), true);
    assert.strictEqual(isToolEnabled(pdf, ['pdf'], 'mcp'), false, 'hidden when chat is to use the MCP server');
    assert.strictEqual(isToolEnabled(pdf, ['pdf'], 'both'), true);
  });

  it('names every difference between two manifests', () => {
    const a = buildManifest([navigate], new Map());
    const changed = [
      { ...a[0], inputSchema: { type: 'object' } },
      { ...a[0], name: 'browser_extra' },
    ];
    assert.deepStrictEqual(diffManifests(a, changed), [
      'browser_navigate: inputSchema differs',
      'browser_extra: in package.json but not published by the child',
    ]);
    assert.deepStrictEqual(diffManifests(a, a), []);
  });
});

describe('package.json tools', () => {
  // How many tools there are follows from the pinned server: a real-browser test diffs this manifest
  // against the live child's list. Here only what holds whatever the count is.
  it('declares the tools of the pinned @playwright/mcp with valid, unique names', () => {
    assert.ok(manifest.length > 0);
    assert.strictEqual(new Set(manifest.map(t => t.name)).size, manifest.length);
    for (const tool of manifest) {
      assert.match(tool.name, /^(?!copilot_|vscode_)[\w-]+$/);
      assert.ok(tool.displayName && tool.modelDescription, `${tool.name} needs a display name and model description`);
      assert.strictEqual(tool.inputSchema.type, 'object');
      if (tool.canBeReferencedInPrompt) assert.ok(tool.toolReferenceName);
    }
  });

  it("shows the default tools with no capability on, a group's tools when it is on, and all with every one on", () => {
    const defaults = manifest.filter(t => capabilityOf(t) === undefined);
    const vision = manifest.filter(t => capabilityOf(t) === 'vision');
    assert.ok(defaults.length > 0 && vision.length > 0);
    assert.deepStrictEqual(
      manifest.filter(t => isToolEnabled(t, [])),
      defaults,
    );
    assert.deepStrictEqual(
      manifest.filter(t => isToolEnabled(t, ALL_CAPABILITIES)),
      manifest,
    );
    assert.deepStrictEqual(
      manifest
        .filter(t => isToolEnabled(t, ['vision']))
        .map(t => t.name)
        .sort(),
      [...defaults, ...vision].map(t => t.name).sort(),
    );
  });

  it('never shows the model the same tool twice: with exposure on MCP, no language-model tool holds', () => {
    assert.strictEqual(manifest.filter(t => isToolEnabled(t, ALL_CAPABILITIES, 'mcp')).length, 0);
    assert.strictEqual(packageJson.contributes.configuration.properties['playwrightBridge.exposure'].default, 'languageModelTools');
  });

  it('has a setting for every key its when clauses name', () => {
    const properties = packageJson.contributes.configuration.properties;
    for (const tool of manifest) {
      for (const key of tool.when!.match(/config\.[\w.]+/g) ?? []) {
        const setting = properties[key.replace(/^config\./, '')];
        assert.ok(setting, `${tool.name} is gated by ${key}, which is no setting`);
        assert.ok(['boolean', 'string'].includes(setting.type));
      }
    }
  });
});

describe('capability hints', () => {
  const pdf = { name: 'browser_pdf_save', when: 'config.playwrightBridge.capabilities.pdf' };

  it('names the setting when a capability tool is off', () => {
    assert.match(capabilityHint(pdf, [], undefined)!, /turned off\. Turn on the setting playwrightBridge\.capabilities\.pdf/);
  });

  it('asks for a restart when the setting came on after the browser started', () => {
    assert.match(capabilityHint(pdf, ['pdf'], [])!, /Restart Browser/);
    assert.strictEqual(capabilityHint(pdf, ['pdf'], ['pdf']), undefined);
    assert.strictEqual(capabilityHint(pdf, ['pdf'], undefined), undefined, 'a child that has not started yet will start with it');
    assert.strictEqual(capabilityHint({ name: 'browser_click', when: "config.playwrightBridge.exposure != 'mcp'" }, [], []), undefined);
  });
});
