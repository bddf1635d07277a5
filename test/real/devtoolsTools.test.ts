/**
 * The DevTools tools on the agent's own browser (real child and Chromium, pages served by the fixture):
 * a performance trace of a reload with its vitals, insights and the LCP element's ref; INP of the agent's
 * next call; an accessibility audit whose refs the ordinary tools act on; emulation the browser applies; a trace's
 * file bounded as a whole (pages that flood user timing, a small output budget): the file the answer names is in
 * the output folder, under the budget, and it and the answer say what was cut.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { FixtureServer } from '../fixtures/fixtureServer';
import { PLANTED_RULES } from '../fixtures/devtoolsPages';
import { makeRealBridge, openDoor, RealBridge, refOf, textOf } from '../support/realBridge';
import type { ToolCallRecord } from '../../src/core/supervision/activityLog';
import { SETTLE_MS } from '../../src/child/devtools/performanceTrace';
import { END_DEADLINE_MS } from '../../src/child/devtools/traceRecorder';

/** A trace file as the bridge writes it: its events, and what its metadata says was cut. */
interface TraceFile {
  traceEvents: { cat?: string; name?: string }[];
  metadata: { cut?: { textsCut: number; eventsLeftOut: number; limitBytes: number; why: string } };
}

describe('the DevTools tools (real child and Chromium)', function () {
  this.timeout(180000);
  let fixture: FixtureServer;
  let bridge: RealBridge | undefined;
  beforeEach(async () => {
    fixture = new FixtureServer();
    await fixture.start();
  });
  afterEach(async () => {
    await bridge?.dispose();
    bridge = undefined;
    await fixture.stop().catch(() => undefined);
  });

  /** The record of each finished call, by tool name (the last one). */
  function records(real: RealBridge): Map<string, ToolCallRecord> {
    const seen = new Map<string, ToolCallRecord>();
    real.supervisor.onToolCall(record => {
      if (record.outcome) seen.set(record.name, record);
    });
    return seen;
  }

  it('a trace of a reload: LCP with its phases and element ref, CLS, the insights with what to change, and the trace file DevTools opens', async () => {
    bridge = makeRealBridge();
    const done = records(bridge);
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/perf/hero` });
    const result = await bridge.supervisor.callTool('bridge_performance_trace', {});
    const text = textOf(result);
    assert.ok(!result.isError, text);
    assert.match(text, /LCP (\d+) ms \((good|needs improvement|poor)\) — time to first byte \d+ ms/);
    const lcp = Number(/LCP (\d+) ms/.exec(text)![1]);
    assert.ok(lcp >= 700, `LCP is the late hero image (shown after about 800 ms), not the heading: ${lcp} ms`);
    assert.match(text, /element img src=\/perf\/hero\.png\?delay=600 "Hero" \[ref=(f\d+)?e\d+\]/);
    assert.match(text, /Render-blocking requests \(RenderBlocking, fail[^)]*\)\n {4}http:\/\/127\.0\.0\.1:\d+\/perf\/slow\.css/);
    assert.match(text, /LCPDiscovery/);
    assert.match(text, /What to change: Defer or inline/);
    const file = /output folder as (\S+):/.exec(text)![1];
    const trace = JSON.parse(fs.readFileSync(path.join(bridge.config.mcp.outputDir, file), 'utf8')) as { traceEvents: { name: string }[] };
    assert.ok(
      trace.traceEvents.some(event => event.name === 'largestContentfulPaint::Candidate'),
      'the file is the whole trace',
    );
    assert.ok(!trace.traceEvents.some(event => event.name === 'Screenshot'), 'it holds no screenshots');
    const card = done.get('bridge_performance_trace')?.card;
    assert.strictEqual(card?.kind, 'trace');
    assert.strictEqual(card.kind === 'trace' && card.trace.lcp?.ms, lcp, 'the card shows what the model read');
    const renderBlocking = card.kind === 'trace' ? card.trace.insights.find(insight => insight.name === 'RenderBlocking') : undefined;
    assert.match(
      renderBlocking?.docs ?? '',
      /^https:\/\/developer\.chrome\.com\/docs\/.*render-blocking/,
      "the card's Learn more is DevTools' own page for the insight",
    );
    // The ref the trace named is one the ordinary tools act on.
    const ref = /\[ref=((f\d+)?e\d+)\]/.exec(text)![1];
    const hovered = await bridge.supervisor.callTool('browser_hover', { element: 'hero', target: ref });
    assert.ok(!hovered.isError, textOf(hovered));
  });

  it("the answer's words on pages built for each: the shifts' culprits by DevTools' name, a failed check said failed, a third party counted, and nothing DevTools has not", async () => {
    bridge = makeRealBridge();
    const done = records(bridge);
    const trace = async (page: string) => {
      await bridge!.supervisor.callTool('browser_navigate', { url: `${fixture.url}${page}` });
      const result = await bridge!.supervisor.callTool('bridge_performance_trace', {});
      const text = textOf(result);
      assert.ok(!result.isError, text);
      const card = done.get('bridge_performance_trace')?.card;
      assert.ok(card?.kind === 'trace');
      return { text, card: card.trace };
    };

    // An ad slot's iframe and an unsized banner move the text: each culprit in DevTools' words, once.
    const ad = await trace('/perf/ad-shifts');
    assert.doesNotMatch(ad.text, /\[object Object\]/);
    assert.match(ad.text, /- CLS [\d.]+ \([^)]+\) — culprits: Injected iframe; Unsized image element http:\/\/127\.0\.0\.1:\d+\/perf\/hero\.png\?delay=50\n/);
    assert.match(ad.text, /\(CLSCulprits, fail\)\n {4}Injected iframe\n {4}Unsized image element http/);
    assert.deepStrictEqual(ad.card.cls.culprits.slice(0, 1), ['Injected iframe'], 'the card names them as the model reads them');

    // The hero is added by a script: its request is not discoverable, and the answer says that check failed.
    const hero = await trace('/perf/hero');
    assert.match(hero.text, /\(LCPDiscovery, fail\)\n(?: {4}.*\n)*? {4}Check failed: Request is discoverable in initial document\n/);
    assert.doesNotMatch(hero.text, /^ {4}Request is discoverable/m, "DevTools' label for a passed check is never said bare of a failed one");

    // Scripts of another origin (localhost beside 127.0.0.1) on the child's Node (VS Code's): the engine counts them.
    const thirdParty = await trace('/perf/third-party');
    assert.match(thirdParty.text, /\(ThirdParties, [a-z]+\)\n(?: {4}.*\n)*? {4}localhost: \d+ KB, \d+ ms on the main thread/);
    assert.doesNotMatch(thirdParty.text, /Not computed/, 'every insight the engine has was computed');

    // Only DevTools' own insights are listed under their names.
    const { Insights } = (await import('@paulirish/trace_engine')) as unknown as { Insights: { Models: Record<string, unknown> } };
    for (const answer of [ad, hero, thirdParty])
      for (const insight of answer.card.insights) assert.ok(insight.name in Insights.Models, `${insight.name} is one of DevTools' insights`);
  });

  it('an insight the trace engine cannot compute is said so, by name and why, not left out (the engine on Node 20 throws in three)', async () => {
    // On Node 20 the engine's iterator helpers are missing; on VS Code's Node (22 or later) every insight is computed.
    const node20 = Number(process.versions.node.split('.')[0]) < 22 ? process.execPath : undefined;
    bridge = makeRealBridge({}, {}, node20 ? { childNode: node20 } : {});
    const done = records(bridge);
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/perf/third-party` });
    const text = textOf(await bridge.supervisor.callTool('bridge_performance_trace', {}));
    const card = done.get('bridge_performance_trace')?.card;
    assert.ok(card?.kind === 'trace');
    if (node20) {
      assert.match(text, /\nNot computed \(DevTools' trace engine failed on them, so whether they pass is unknown\): [^\n]*ThirdParties \([^)]+\)/);
      assert.deepStrictEqual(
        card.trace.notComputed?.map(n => n.name),
        ['DuplicatedJavaScript', 'LegacyJavaScript', 'ThirdParties'],
        'the card lists the same',
      );
    } else {
      assert.doesNotMatch(text, /Not computed/);
      assert.ok(card.trace.insights.some(insight => insight.name === 'ThirdParties'));
    }
  });

  it("the agent drills into one insight of its last trace: each shift's time, score, moved elements with refs and cause; INP's three phases", async () => {
    bridge = makeRealBridge();
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/perf/ad-shifts` });
    const before = textOf(await bridge.supervisor.callTool('bridge_performance_trace', { insight: 'CLSCulprits' }));
    assert.match(before, /needs a trace of this session first/, 'no trace yet: said so');

    await bridge.supervisor.callTool('bridge_performance_trace', {});
    const cls = await bridge.supervisor.callTool('bridge_performance_trace', { insight: 'CLSCulprits' });
    const text = textOf(cls);
    assert.ok(!cls.isError, text);
    assert.match(text, /^Layout shift culprits \(fail\), CLSCulprits, in the last trace:\nCluster 1: \d+ shifts?, score 0\.\d+/);
    // The iframe's shift: its time, its score, what it moved (said with a ref the ordinary tools act on) and why.
    const shift = / {2}Shift at (\d+) ms, score (0\.\d+); moved ([^;]+); caused by an injected iframe http:\/\/127\.0\.0\.1:\d+\/perf\/ad/.exec(text);
    assert.ok(shift, `the iframe's shift in detail:\n${text}`);
    assert.ok(Number(shift[1]) >= 250, `it came after the ad was injected (300 ms): ${shift[1]} ms`);
    assert.match(text, /caused by an unsized image img src=\/perf\/hero\.png\?delay=50 "banner" \[ref=\w+\]/, 'the unsized banner, with its ref');
    const movedRef = /\[ref=(\w+)\]/.exec(shift[3])?.[1];
    assert.ok(movedRef, `a moved element has a ref: ${shift[3]}`);
    const hovered = await bridge.supervisor.callTool('browser_hover', { element: 'moved', target: movedRef });
    assert.ok(!hovered.isError, textOf(hovered));

    const unknown = textOf(await bridge.supervisor.callTool('bridge_performance_trace', { insight: 'Nope' }));
    assert.match(unknown, /the last trace has no insight "Nope"; it has: .*CLSCulprits/);

    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/perf/slow-click` });
    const ref = /button "Do the slow thing" \[ref=(\w+)\]/.exec(textOf(await bridge.supervisor.callTool('browser_snapshot', {})))![1];
    await bridge.supervisor.callTool('bridge_performance_trace', { during: 'nextCall' });
    const clicked = textOf(await bridge.supervisor.callTool('browser_click', { element: 'slow button', target: ref }));
    const inp = Number(/INP (\d+) ms/.exec(clicked)?.[1]);
    const phases = textOf(await bridge.supervisor.callTool('bridge_performance_trace', { insight: 'INPBreakdown' }));
    const parts =
      /The slowest interaction: a (\w+), (\d+) ms in all\n {2}Input delay (\d+) ms[^\n]*\n {2}Processing (\d+) ms[^\n]*\n {2}Presentation delay (\d+) ms/.exec(
        phases,
      );
    assert.ok(parts, phases);
    assert.ok(Number(parts[4]) >= 340, `processing is the 350 ms handler: ${parts[4]} ms`);
    const sum = Number(parts[3]) + Number(parts[4]) + Number(parts[5]);
    assert.ok(Math.abs(sum - inp) <= 3, `the three phases add up to INP (${sum} against ${inp})`);
  });

  it("forced reflow of an agent's click: the page's own function with the time it spent, and Playwright's own checks not named as page code", async () => {
    bridge = makeRealBridge();
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/perf/reflow` });
    const ref = /button "Resize the box" \[ref=(\w+)\]/.exec(textOf(await bridge.supervisor.callTool('browser_snapshot', {})))![1];
    await bridge.supervisor.callTool('bridge_performance_trace', { during: 'nextCall' });
    const text = textOf(await bridge.supervisor.callTool('browser_click', { element: 'Resize the box', target: ref }));
    const reflow = /\(ForcedReflow, fail\)\n {4}layoutThrash http:\/\/127\.0\.0\.1:\d+\/perf\/reflow\.js:5: (\d+) ms forced reflow/.exec(text);
    assert.ok(reflow, `the function that forced layout is named where it is:\n${text}`);
    // It spends 80 ms writing and reading sizes: most of that is layout.
    assert.ok(Number(reflow[1]) >= 20, `its time is read: ${reflow[1]} ms`);
    assert.doesNotMatch(text, /expectHitTarget/, "Playwright's hit-target check is not listed as the page's code");
  });

  it("INP of the agent's next call: a click whose handler runs 350 ms", async () => {
    bridge = makeRealBridge();
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/perf/slow-click` });
    const snapshot = textOf(await bridge.supervisor.callTool('browser_snapshot', {}));
    const ref = /button "Do the slow thing" \[ref=(e\d+)\]/.exec(snapshot)![1];
    const started = await bridge.supervisor.callTool('bridge_performance_trace', { during: 'nextCall' });
    assert.match(textOf(started), /make your next browser call now/);
    const clicked = await bridge.supervisor.callTool('browser_click', { element: 'slow button', target: ref });
    const text = textOf(clicked);
    assert.ok(!clicked.isError, text);
    assert.match(text, /Performance trace of browser_click/);
    const inp = Number(/INP (\d+) ms/.exec(text)?.[1]);
    assert.ok(inp >= 340, `INP covers the 350 ms handler: ${text.slice(0, 600)}`);
  });

  it('an audit finds each planted violation with refs the agent can act on; a clean page has none', async () => {
    bridge = makeRealBridge();
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/a11y/planted` });
    // A ref the agent held before the audit still works after it.
    const before = /textbox \[ref=(e\d+)\]/.exec(textOf(await bridge.supervisor.callTool('browser_snapshot', {})))![1];
    const result = await bridge.supervisor.callTool('bridge_accessibility_audit', {});
    const text = textOf(result);
    assert.ok(!result.isError, text);
    for (const rule of PLANTED_RULES) assert.match(text, new RegExp(`\\(${rule}, https://dequeuniversity`), `${rule} found:\n${text}`);
    const labelRef = new RegExp(`\\(label, [^)]+\\)\\n  - \\[ref=(e\\d+)\\] input#email`).exec(text)?.[1];
    assert.ok(labelRef, `the unlabelled input has a ref:\n${text}`);
    const typed = await bridge.supervisor.callTool('browser_type', { element: 'email', target: labelRef, text: 'a@b.c' });
    assert.ok(!typed.isError, textOf(typed));
    const again = await bridge.supervisor.callTool('browser_type', { element: 'email', target: before, text: 'x@y.z' });
    assert.ok(!again.isError, `an earlier ref still works: ${textOf(again)}`);

    // A page cannot point a finding on a wrapper at the control inside it.
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/a11y/forged` });
    const forged = textOf(await bridge.supervisor.callTool('bridge_accessibility_audit', {}));
    const payRef = /button "Pay now" \[ref=(\w+)\]/.exec(textOf(await bridge.supervisor.callTool('browser_snapshot', {})))![1];
    assert.match(forged, /div#wrap/, `the wrapper's violation is listed: ${forged}`);
    assert.ok(!forged.includes(`[ref=${payRef}] div#wrap`), `the wrapper is not given the button's ref: ${forged}`);

    // Pictures without alt (in a link, in a figure) and focusable elements under aria-hidden: each with its own ref.
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/a11y/hidden-focus` });
    const hidden = textOf(await bridge.supervisor.callTool('bridge_accessibility_audit', {}));
    for (const element of ['img#logo', 'img#photo', 'div#hidden', 'p#tab-stop'])
      assert.match(hidden, new RegExp(`  - \\[ref=\\w+\\] ${element}`), `${element} has a ref:\n${hidden}`);
    const logoRef = /\[ref=(\w+)\] img#logo/.exec(hidden)![1];
    const clicked = await bridge.supervisor.callTool('browser_click', { element: 'logo', target: logoRef });
    assert.match(textOf(clicked), /Page URL: http:\/\/127\.0\.0\.1:\d+\/a11y\/clean/, "the picture's ref clicks the picture (its link opens)");

    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/a11y/clean` });
    assert.match(textOf(await bridge.supervisor.callTool('bridge_accessibility_audit', {})), /: no violations\. \d+ rules passed/);
  });

  it("attacked by elements that name a control without being it (aria-owns over its box, aria-controls, labels): each finding's ref and the LCP element's is that element's own or none, and clicking one presses nothing", async () => {
    bridge = makeRealBridge();
    const call = (name: string, args: Record<string, unknown>) => bridge!.supervisor.callTool(name, args);
    await call('browser_navigate', { url: `${fixture.url}/a11y/borrowed` });
    const snapshot = textOf(await call('browser_snapshot', {}));
    const pay = refOf(snapshot, /button "Pay now"/);
    const controls = new Map([
      [pay, 'Pay'],
      [refOf(snapshot, /button "Buy now"/), 'Buy'],
      [refOf(snapshot, /checkbox "I agree"/), 'Agree'],
    ]);
    /** What a ref names, as the page's own id of the element Playwright finds for it. */
    const idOf = async (ref: string) =>
      /"([^"]*)"/.exec(textOf(await call('browser_evaluate', { element: 'a finding', target: ref, function: '(element) => element.id' })))?.[1];
    /** Each ref an answer gives the element `tag#id` (its lines without a ref give none). */
    const refsGiven = (text: string, element: string) =>
      [...text.matchAll(new RegExp(`(?:^ +- |element )(?:\\[ref=(\\w+)\\] )?${element}\\b(?:[^\\n[]*\\[ref=(\\w+)\\])?`, 'gm'))].map(m => m[1] ?? m[2]);

    const audit = textOf(await call('bridge_accessibility_audit', {}));
    for (const element of ['div#over', 'div#banner', 'div#controls', 'label#names', 'label#wraps']) {
      const given = refsGiven(audit, element);
      assert.ok(given.length, `the finding on ${element} is listed:\n${audit}`);
      for (const ref of given.filter((r): r is string => r !== undefined)) {
        assert.ok(!controls.has(ref), `the finding on ${element} is given the ${controls.get(ref)} control's ref ${ref}:\n${audit}`);
        assert.strictEqual(await idOf(ref), element.split('#')[1], `the ref given to ${element} names ${element} itself`);
      }
    }
    for (const element of ['div#over', 'div#banner']) {
      for (const ref of refsGiven(audit, element).filter((r): r is string => r !== undefined)) await call('browser_click', { element, target: ref });
    }
    assert.match(
      textOf(await call('browser_evaluate', { function: '() => "pressed: [" + pressed.join() + "]"' })),
      /pressed: \[\]/,
      'clicking the refs of the overlays pressed no control',
    );
    // Nor the other way round: an audit of the Pay button's ref is of the button, not of the overlay with its box.
    const scoped = textOf(await call('bridge_accessibility_audit', { ref: pay }));
    assert.match(scoped, new RegExp(`^Accessibility audit of element ${pay} `), scoped);
    assert.doesNotMatch(scoped, /div#over/, `the audit of the Pay button's ref audits the button, not the overlay over it:\n${scoped}`);
    assert.match(textOf(await call('bridge_accessibility_audit', { ref: 'e9999' })), /No element with ref "e9999" is on the page now/);

    // The banner is the page's largest paint: the trace's LCP element, which owns the Buy button under it.
    const trace = textOf(await call('bridge_performance_trace', {}));
    assert.match(trace, /element div#banner\b/, trace);
    const after = textOf(await call('browser_snapshot', {}));
    const buy = refOf(after, /button "Buy now"/);
    for (const ref of refsGiven(trace, 'div#banner').filter((r): r is string => r !== undefined)) {
      assert.notStrictEqual(ref, buy, `the LCP element is given the Buy button's ref:\n${trace}`);
      assert.strictEqual(await idOf(ref), 'banner', "the LCP element's ref names the banner itself");
    }
  });

  it('attacked by a page that floods user timing (40 marks of 1 MB): its trace answers within its deadline, every mark kept and cut', async () => {
    bridge = makeRealBridge();
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/perf/user-timing-flood` });
    const started = Date.now();
    const result = await bridge.supervisor.callTool('bridge_performance_trace', {});
    const took = Date.now() - started;
    const text = textOf(result);
    assert.ok(!result.isError, `the trace answers (after ${took} ms): ${text.slice(0, 300)}`);
    // Sooner than a trace whose hand-over ran out its deadline would have failed, after the page settled.
    assert.ok(took < SETTLE_MS + END_DEADLINE_MS, `the trace answered within its deadline: ${took} ms`);
    const file = path.join(bridge.config.mcp.outputDir, /output folder as (\S+):/.exec(text)![1]);
    assert.ok(fs.existsSync(file), `the trace file the answer names is in the output folder (one over the output budget is deleted at once): ${file}`);
    const written = fs.readFileSync(file, 'utf8');
    assert.ok(written.length < 8 * 1024 * 1024, `the file holds the marks cut, not their 40 MB: ${written.length} bytes`);
    const events = (JSON.parse(written) as { traceEvents: { cat: string; name: string }[] }).traceEvents;
    const marks = new Set(
      events.filter(event => event.cat === 'blink.user_timing' && event.name.startsWith('flood-')).map(event => /^flood-\d+/.exec(event.name)![0]),
    );
    assert.strictEqual(marks.size, 40, "every mark is in the trace, by its name's start");
    assert.ok(
      events.some(event => /^flood-0-m+… \[cut: \d+ characters\]$/.test(event.name)),
      'a long name is cut and says how long it was',
    );
  });

  it('emulation: CPU slowdown, dark scheme and reduced motion are what the page sees; reset takes them off', async () => {
    bridge = makeRealBridge();
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/perf/clean` });
    const set = await bridge.supervisor.callTool('bridge_emulate', { network: 'slow4g', cpuSlowdown: 4, colorScheme: 'dark', reducedMotion: 'reduce' });
    assert.match(textOf(set), /network slow 4G.*CPU 4× slower.*prefers-color-scheme: dark.*prefers-reduced-motion: reduce/);
    const seen = textOf(
      await bridge.supervisor.callTool('browser_evaluate', {
        function: '() => [matchMedia("(prefers-color-scheme: dark)").matches, matchMedia("(prefers-reduced-motion: reduce)").matches].join()',
      }),
    );
    assert.match(seen, /true,true/);
    const bad = await bridge.supervisor.callTool('bridge_emulate', { cpuSlowdown: 100 });
    assert.ok(bad.isError);
    // Worded from the tool's one definition (core/tools/own/emulate.ts), as every own tool's argument problems are.
    assert.match(textOf(bad), /cpuSlowdown must be at most 20; got 100/);
    assert.match(textOf(await bridge.supervisor.callTool('bridge_emulate', { reset: true })), /emulates nothing now/);
    const after = textOf(await bridge.supervisor.callTool('browser_evaluate', { function: '() => matchMedia("(prefers-color-scheme: dark)").matches' }));
    assert.doesNotMatch(after, /true/);
  });

  it("attacked by a second client: its trace, audit and emulation act on its own context only, never the window's page", async () => {
    const d = await openDoor({ isolation: 'perClient' });
    try {
      const token = `tok-${Date.now()}`;
      await d.bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/a11y/planted?reset=${token}` }, { door: 'tool' });
      const a = await d.connect('attacker-a');
      // A has no page of its own yet: nothing to measure, and the window's page is not offered instead.
      for (const tool of ['bridge_accessibility_audit', 'bridge_performance_trace', 'bridge_emulate']) {
        const before = await a.call(tool, tool === 'bridge_emulate' ? { colorScheme: 'dark' } : {});
        assert.ok(before.result.isError, `${tool} without a page of A's: ${before.text}`);
        assert.match(before.text, /no page is open yet/);
        assert.ok(!before.text.includes(token), before.text);
      }
      await a.call('browser_navigate', { url: `${fixture.url}/perf/clean` });
      // Its trace may not open a local file, which upstream's own rules keep from pages.
      const local = await a.call('bridge_performance_trace', { during: 'navigate', url: 'file:///etc/passwd' });
      assert.ok(local.result.isError && /an http or https address/.test(local.text) && !/root:/.test(local.text), local.text);
      const audit = await a.call('bridge_accessibility_audit', {});
      assert.match(audit.text, /\/perf\/clean/);
      assert.ok(!audit.text.includes(token) && !audit.text.includes('/a11y/planted'), `A's audit is of A's page: ${audit.text}`);
      const trace = await a.call('bridge_performance_trace', {});
      assert.ok(!trace.text.includes(token) && !trace.text.includes('/a11y/planted'), `A's trace is of A's page: ${trace.text.slice(0, 300)}`);
      await a.call('bridge_emulate', { colorScheme: 'dark', cpuSlowdown: 6 });
      const windowSees = textOf(
        await d.bridge.supervisor.callTool('browser_evaluate', { function: '() => matchMedia("(prefers-color-scheme: dark)").matches' }, { door: 'tool' }),
      );
      assert.doesNotMatch(windowSees, /true/, "A's emulation did not reach the window's page");
      const aSees = await a.call('browser_evaluate', { function: '() => matchMedia("(prefers-color-scheme: dark)").matches' });
      assert.match(aSees.text, /true/, "A's own page is dark");
    } finally {
      await d.dispose();
    }
  });

  it("attacked by a second client in the same browser: A's trace holds none of B's pages, and B's trace meanwhile is refused in words with its tab kept", async () => {
    const d = await openDoor({ isolation: 'perClient' });
    try {
      const marker = `b-private-${Date.now()}`;
      const a = await d.connect('client-a');
      const b = await d.connect('client-b');
      await a.call('browser_navigate', { url: `${fixture.url}/perf/clean` });
      await b.call('browser_navigate', { url: `${fixture.url}/perf/clean` });
      // A records a few seconds; B browses to a page of its own meanwhile (the clients' contexts share one browser).
      const traced = a.call('bridge_performance_trace', { during: 'seconds', seconds: 4 });
      await new Promise(resolve => setTimeout(resolve, 1000));
      await b.call('browser_navigate', { url: `${fixture.url}/perf/shifts?account=${marker}` });
      const refused = await b.call('bridge_performance_trace', {});
      assert.ok(refused.result.isError, refused.text);
      assert.match(refused.text, /Another trace is recording in this browser/);
      const bTab = await b.call('browser_evaluate', { function: '() => location.href' });
      assert.match(bTab.text, new RegExp(marker), `B's tab went back to its page, not left blank: ${bTab.text}`);
      const answer = await traced;
      assert.ok(!answer.result.isError, answer.text);
      assert.ok(!answer.text.includes(marker), `A's answer names none of B's pages: ${answer.text}`);
      const file = /output folder as (\S+):/.exec(answer.text)![1];
      const written = fs.readFileSync(path.join(d.bridge.config.mcp.outputDir, file), 'utf8');
      assert.ok(written.includes('/perf/clean') && written.length > 10000, "A's own page is in its trace");
      assert.ok(!written.includes(marker), "B's address is in no event of A's trace file");
    } finally {
      await d.dispose();
    }
  });

  it("a trace and an audit hold no secret's value: the answer, the card and the trace file have its placeholder", async () => {
    const secret = 'Trace-s3cret-5521';
    bridge = makeRealBridge({}, {}, { secrets: { LAB_TOKEN: { value: secret, origins: [fixture.url] } } });
    const done = records(bridge);
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/perf/hero?name=${secret}` });
    const trace = textOf(await bridge.supervisor.callTool('bridge_performance_trace', {}));
    assert.ok(!trace.includes(secret), 'not in the answer');
    assert.match(trace, /<secret>LAB_TOKEN<\/secret>/);
    const file = /output folder as (\S+):/.exec(trace)![1];
    const written = fs.readFileSync(path.join(bridge.config.mcp.outputDir, file), 'utf8');
    assert.ok(written.length > 10000 && !written.includes(secret), 'not in the trace file');
    const record = JSON.parse(fs.readFileSync(path.join(bridge.config.mcp.outputDir, '.playwright-bridge-written.json'), 'utf8')) as unknown;
    assert.match(JSON.stringify(record), new RegExp(file.replace(/[.]/g, '\\.')), "the trace file is the bridge's: it counts against the output budget");
    assert.ok(!JSON.stringify(done.get('bridge_performance_trace')?.card).includes(secret), 'not on the card');
    // A signed-in page: its HttpOnly session cookie is in no header the trace file keeps.
    const sid = `sid-${Date.now()}`;
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/session-login?sid=${sid}` });
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/perf/clean` });
    const signedIn = /output folder as (\S+):/.exec(textOf(await bridge.supervisor.callTool('bridge_performance_trace', {})))![1];
    assert.ok(!fs.readFileSync(path.join(bridge.config.mcp.outputDir, signedIn), 'utf8').includes(sid), 'the cookie is not in the trace file');
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/a11y/planted?name=${secret}` });
    const audit = textOf(await bridge.supervisor.callTool('bridge_accessibility_audit', {}));
    assert.ok(!audit.includes(secret) && /<secret>LAB_TOKEN<\/secret>/.test(audit), audit.slice(0, 200));
  });

  /** The trace of a reload of `page`: the answer, how long it took, and the file it names, which must be in the output folder. */
  async function traceOf(real: RealBridge, page: string): Promise<{ text: string; took: number; file: string; trace: TraceFile }> {
    await real.supervisor.callTool('browser_navigate', { url: `${fixture.url}${page}` });
    const started = Date.now();
    const result = await real.supervisor.callTool('bridge_performance_trace', {});
    const took = Date.now() - started;
    const text = textOf(result);
    assert.ok(!result.isError, `the trace answers (after ${took} ms): ${text.slice(0, 400)}`);
    const named = /output folder as (\S+):/.exec(text)?.[1];
    assert.ok(named, `the answer names its file: ${text.slice(-600)}`);
    const file = path.join(real.config.mcp.outputDir, named);
    assert.ok(
      fs.existsSync(file),
      `the trace file the answer names is in the output folder: ${named}; it holds ${JSON.stringify(fs.readdirSync(real.config.mcp.outputDir))}`,
    );
    assert.ok(
      fs.statSync(file).size <= real.config.outputBudgetBytes,
      `the file is under the output budget: ${fs.statSync(file).size} bytes of ${real.config.outputBudgetBytes}`,
    );
    return { text, took, file, trace: JSON.parse(fs.readFileSync(file, 'utf8')) as TraceFile };
  }

  it('attacked by a page that floods user timing with 8,000 marks just under the cut of one text: the file is in the folder, under the budget, and it and the answer count the texts cut', async () => {
    bridge = makeRealBridge();
    const { text, trace } = await traceOf(bridge, '/perf/marks-flood');
    const cut = trace.metadata.cut;
    assert.ok(cut && cut.textsCut > 8000, `the file's metadata counts the texts cut: ${JSON.stringify(cut)}`);
    assert.match(cut.why, /kept up to 4096 characters, and to its first 64 once \d+ characters of such texts are kept/);
    assert.match(
      text,
      new RegExp(
        `${cut.textsCut} long texts the page wrote were cut short to keep it bounded \\(within [\\d.]+ MB, under the output folder's budget\\); its metadata says so`,
      ),
      text.slice(-700),
    );
    const marks = trace.traceEvents.filter(event => event.cat === 'blink.user_timing' && /^m\d+-x/.test(event.name ?? ''));
    assert.ok(
      marks.some(event => /^m\d+-x{3988}$/.test(event.name!)),
      'the first marks are kept whole',
    );
    assert.ok(
      marks.some(event => /^m\d+-x+… \[cut: 399\d characters\]$/.test(event.name!) && event.name!.length < 100),
      'past the total, a mark keeps its start and says how long it was',
    );
  });

  it("attacked by a page that floods user timing without end: its trace ends within its deadline with what it has, says the page's scripts were paused, and the page runs again", async () => {
    bridge = makeRealBridge();
    const { text, took, trace } = await traceOf(bridge, '/perf/marks-forever');
    assert.ok(took < SETTLE_MS + END_DEADLINE_MS, `the trace answered within its deadline: ${took} ms`);
    assert.match(text, /The page kept the browser too busy to hand the trace over: its scripts were paused for [\d.]+ s until it did/, text.slice(-900));
    assert.ok(
      trace.traceEvents.some(event => event.cat === 'blink.user_timing'),
      "the file holds what was recorded, the flood's marks among it",
    );
    // Chromium's buffer overflows under such a flood (it says it lost data): the page's load may be among what it lost.
    assert.match(text, /^Performance trace of the page's reload on .*\/perf\/marks-forever/, "the answer is the trace's, read from the same events");
    // A timer's callback runs only where the page's scripts may run.
    const after = await bridge.supervisor.callTool('browser_evaluate', {
      function: '() => new Promise(resolve => setTimeout(() => resolve("timer ran " + (6 * 7)), 0))',
    });
    assert.match(textOf(after), /timer ran 42/, `the page's scripts run again: ${textOf(after)}`);
  });

  it("an output budget of 1 MB and a calm page's trace: the file is kept under it, in the folder, and it and the answer count the events left out", async () => {
    bridge = makeRealBridge({ outputMaxSizeMB: 1 });
    const { text, trace } = await traceOf(bridge, '/perf/hero');
    const cut = trace.metadata.cut;
    assert.ok(cut && cut.eventsLeftOut > 0 && cut.limitBytes <= 1024 * 1024, `the file's metadata counts the events left out: ${JSON.stringify(cut)}`);
    assert.match(
      text,
      new RegExp(`${cut.eventsLeftOut} events were left out to keep it bounded \\(within 1 MB, under the output folder's budget\\)`),
      text.slice(-700),
    );
  });
});
