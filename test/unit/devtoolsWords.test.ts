/**
 * The DevTools tools' pure parts: the emulation the arguments ask for (a field left out keeps its value), the
 * words the model reads for a trace and an audit, and a trace step in an exported test (a comment, never code,
 * whatever the agent's arguments hold).
 */
import * as assert from 'assert';
import { emulationAsked } from '../../src/child/devtools/devtoolsTools';
import { auditText, devtoolsText, traceText } from '../../src/core/pipeline/tools/devtoolsWords';
import { isPlainPlaywrightLine } from '../../src/core/testExport/codeCheck';
import { readAnswer } from '../../src/core/testExport/answerSections';
import { writeSpec } from '../../src/core/testExport/specWriter';
import { NO_EMULATION, rate } from '../../src/protocol/devtoolsFacts';

describe("the DevTools tools' facts, words and export", () => {
  it('emulation: fields left out keep their value, "none" turns one off, reset turns all off; bad values say why', () => {
    const dark = emulationAsked(NO_EMULATION, { colorScheme: 'dark', cpuSlowdown: 4 });
    assert.deepStrictEqual(dark, { throttling: 'none', cacheDisabled: false, colorScheme: 'dark', cpuSlowdown: 4 });
    assert.deepStrictEqual(emulationAsked(dark as never, { network: 'custom', downloadKbps: 500, uploadKbps: 100, latencyMs: 80 }), {
      throttling: 'custom',
      custom: { downloadKbps: 500, uploadKbps: 100, latencyMs: 80 },
      cacheDisabled: false,
      colorScheme: 'dark',
      cpuSlowdown: 4,
    });
    assert.deepStrictEqual(emulationAsked(dark as never, { colorScheme: 'none', cpuSlowdown: 1 }), { throttling: 'none', cacheDisabled: false });
    assert.deepStrictEqual(
      emulationAsked({ ...NO_EMULATION, cacheDisabled: true, throttling: 'slow4g' }, { reset: true }),
      { throttling: 'none', cacheDisabled: true },
      "the person's own Disable cache stays",
    );
    // A value out of its own range is said by the definition's words; what the arguments mean together, by the tool.
    assert.match(
      (emulationAsked(NO_EMULATION, { network: 'custom', downloadKbps: 0 }) as { badArgs: string }).badArgs,
      /downloadKbps must be more than 0; got 0/,
    );
    assert.match((emulationAsked(NO_EMULATION, { network: 'custom', downloadKbps: 500 }) as { badArgs: string }).badArgs, /needs downloadKbps and uploadKbps/);
    assert.match(
      (emulationAsked(NO_EMULATION, { reducedMotion: 'sometimes' }) as { badArgs: string }).badArgs,
      /reducedMotion must be one of reduce, no-preference, none; got "sometimes"/,
    );
  });

  it('rates the vitals as Web Vitals do', () => {
    assert.deepStrictEqual(
      [rate('lcp', 2500), rate('lcp', 2501), rate('lcp', 4001), rate('cls', 0.1), rate('cls', 0.2), rate('inp', 200), rate('inp', 501)],
      ['good', 'needs-improvement', 'poor', 'good', 'needs-improvement', 'good', 'poor'],
    );
  });

  it('words a trace and an audit so the model can act: ratings, refs, what to change; a refusal is an error that says what to do', () => {
    const text = traceText({
      url: 'http://x/',
      during: 'reload',
      actionMs: 500,
      file: 'trace-1.json',
      emulation: NO_EMULATION,
      lcp: {
        ms: 3000,
        rating: 'needs-improvement',
        phases: { ttfbMs: 10, loadDelayMs: 900, loadDurationMs: 100, renderDelayMs: 5 },
        element: { description: 'img "Hero"', ref: 'e4' },
      },
      cls: { value: 0, rating: 'good', culprits: [] },
      insights: [{ name: 'LCPDiscovery', title: 'LCP request discovery', state: 'fail', items: ['fetchpriority=high should be applied'] }],
    });
    assert.match(
      text,
      /- LCP 3000 ms \(needs improvement\) — time to first byte 10 ms, load delay 900 ms, load duration 100 ms, render delay 5 ms; element img "Hero" \[ref=e4\]/,
    );
    assert.match(text, /- INP: no interaction in this trace \(record with during "nextCall"/);
    assert.match(
      text,
      /LCP request discovery \(LCPDiscovery, fail\)\n {4}fetchpriority=high should be applied\n {4}What to change: Make the LCP image discoverable/,
    );
    assert.match(
      auditText({
        url: 'http://x/',
        engine: 'axe-core 4',
        passes: 3,
        incomplete: 1,
        violations: [
          {
            rule: 'label',
            impact: 'critical',
            help: 'Form elements must have labels',
            helpUrl: 'https://h',
            more: 2,
            nodes: [{ description: 'input#email', ref: 'e2', fix: 'Fix any of the following:\n  Element has no label' }],
          },
        ],
      }),
      /- critical: Form elements must have labels \(label, https:\/\/h\)\n {2}- \[ref=e2\] input#email — fix: Element has no label\n {2}- and 2 more elements/,
    );
    const refused = devtoolsText({ kind: 'refused', refusal: { why: 'engine', engine: 'firefox' } }, 'bridge_performance_trace');
    assert.ok(refused.refused);
    assert.match(refused.text, /needs Chromium's DevTools protocol; this browser is firefox\. Set playwrightBridge\.browser/);
  });

  it('an exported test marks a trace step with a one-line comment, whatever the arguments hold', () => {
    const written = writeSpec(
      [
        {
          index: 1,
          tool: 'browser_navigate',
          args: { url: 'http://127.0.0.1:8080/' },
          ok: true,
          at: 0,
          answer: readAnswer("### Ran Playwright code\n```js\nawait page.goto('http://127.0.0.1:8080/');\n```"),
        },
        {
          index: 2,
          tool: 'bridge_performance_trace',
          args: { during: 'navigate', url: 'http://a/\nrequire("child_process").exec("x")\u2028' },
          ok: true,
          at: 1,
          answer: readAnswer(''),
        },
      ],
      { title: 't', readSnapshot: () => undefined, readUpload: () => undefined },
    );
    const comment = written.text.split('\n').find(line => line.includes('bridge_performance_trace'))!;
    assert.match(
      comment.trim(),
      /^\/\/ Playwright Bridge: Recording a performance trace of opening http:\/\/a\/ require\("child_process"\)\.exec\("x"\) +\(bridge_performance_trace; not repeated by the test\)$/,
    );
    assert.ok(isPlainPlaywrightLine(comment.trim()), "the comment passes the export's own check of every line");
    assert.ok(!written.text.includes('\u2028'));
  });
});
