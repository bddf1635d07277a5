/**
 * The managed CDP endpoint's figures (key `cdp`): the ordinary tools' cost while the person's DevTools is open on
 * the agent's tab. The scripted session runs through the bridge with DevTools open through the endpoint, through
 * bare upstream with the same DevTools attached straight to its browser's own debugging port (what the endpoint
 * costs: `perCallRatio`), and through bare upstream alone (what DevTools itself costs the page: `devtoolsCostRatio`),
 * per step, median of steps, median of rounds. Also how long Open DevTools takes from the command to the page's DOM
 * shown in DevTools' Elements (a second Chromium stands in for VS Code's webview: the same frontend, the same
 * address), and whether an address shared before Restart Browser is refused after it while a new one works.
 *   BENCH_CDP_ONLY=1 node out/test/bench/bench.js   (after node esbuild.mjs --tests)
 */
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { chromium, type Browser } from 'playwright-core';
import { CdpEndpoint } from '../../src/core/cdpDoor/cdpEndpoint';
import { FixtureServer } from '../fixtures/fixtureServer';
import { startBareUpstream, type BareUpstream } from '../support/bareUpstream';
import { cdpCall } from '../support/cdpClient';
import { median } from '../support/median';
import { makeRealBridge, TEST_BROWSER } from '../support/realBridge';
import { session } from './scriptedSession';

export interface CdpFigures {
  rounds: number;
  /** The scripted session's calls through the bridge with DevTools open on the tab through the endpoint, over bare upstream's with DevTools on its own port (target <= 1.05). */
  perCallRatio: number;
  perRound: number[];
  /** Bare upstream with DevTools open on its own port, over bare upstream alone: DevTools' own cost to the page, whoever serves it. */
  devtoolsCostRatio: number;
  /** The bridge with DevTools open, over bare upstream alone. */
  overBareAloneRatio: number;
  /** From Open DevTools (the capability published) to the watched page's heading shown in DevTools' Elements: median ms. */
  devtoolsOpenMs: number;
  devtoolsOpenRounds: number[];
  /** An address shared before Restart Browser is refused after it, and a new one works. */
  revokedAfterRestart: boolean;
}

/** A loopback port free now (taken, then let go). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise(resolve => server.close(resolve));
  return port;
}

/** Bare upstream whose browser opens a debugging port, for DevTools straight on it (the comparison's other side). */
async function bareWithPort(): Promise<{ bare: BareUpstream; port: number; config: string }> {
  const port = await freePort();
  const config = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-cdp-bench-')), 'config.json');
  fs.writeFileSync(
    config,
    JSON.stringify({ browser: { launchOptions: { args: [`--remote-debugging-port=${port}`, `--remote-allow-origins=http://127.0.0.1:${port}`] } } }),
  );
  return { bare: await startBareUpstream(['--config', config], 'bench-cdp-port'), port, config };
}

/** DevTools' frontend in the viewer on `frontend`, waiting for the page's heading in Elements; how long it took. */
async function openDevtools(viewer: Browser, frontend: string, since: number): Promise<number> {
  const devtools = await viewer.newPage();
  await devtools.goto(frontend);
  await devtools.getByText('Fixture Home', { exact: true }).first().waitFor({ timeout: 60000 });
  return performance.now() - since;
}

async function round(
  fixture: FixtureServer,
  index: number,
): Promise<{ ratio: number; costRatio: number; overAlone: number; openMs: number; revokedAfterRestart?: boolean }> {
  const bridge = makeRealBridge();
  const endpoint = new CdpEndpoint(bridge.supervisor, () => undefined);
  const alone = await startBareUpstream([], 'bench-cdp');
  const withPort = await bareWithPort();
  const viewer = await chromium.launch({ executablePath: TEST_BROWSER, args: ['--no-sandbox'] });
  try {
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
    await alone.call('browser_navigate', { url: `${fixture.url}/` });
    await withPort.bare.call('browser_navigate', { url: `${fixture.url}/` });
    const started = performance.now();
    const opened = await endpoint.publish('devtools');
    const base = `127.0.0.1:${opened.port}/${opened.capability}`;
    const openMs = await openDevtools(viewer, `http://${base}/frontend/inspector.html?ws=${base}/devtools/page/${opened.currentTargetId}`, started);
    // The same frontend straight on bare's browser, served by Chromium itself from its debugging port.
    const targets = JSON.parse(await (await fetch(`http://127.0.0.1:${withPort.port}/json/list`)).text()) as { id: string; type: string; url: string }[];
    const page = targets.find(target => target.type === 'page' && target.url.startsWith(fixture.url))!;
    await openDevtools(
      viewer,
      `http://127.0.0.1:${withPort.port}/devtools/inspector.html?ws=127.0.0.1:${withPort.port}/devtools/page/${page.id}`,
      performance.now(),
    );

    type Name = 'bridge' | 'bare' | 'alone';
    const doors: Record<Name, (name: string, args: Record<string, unknown>) => Promise<CallToolResult>> = {
      bridge: (name, args) => bridge.supervisor.callTool(name, args),
      bare: withPort.bare.call,
      alone: alone.call,
    };
    const names: Name[] = ['bridge', 'bare', 'alone'];
    const states = Object.fromEntries(names.map(name => [name, new Map<string, string>()])) as Record<Name, Map<string, string>>;
    const ratios: number[] = [];
    const costs: number[] = [];
    const overAlone: number[] = [];
    for (const [i, step] of session(fixture.url).entries()) {
      const times = { bridge: 0, bare: 0, alone: 0 };
      // Rotate which goes first, so none always gets the warmer machine.
      for (const name of names.map((_, k) => names[(k + i + index) % names.length])) {
        const t0 = performance.now();
        const result = await doors[name](step.name, step.args(states[name]));
        times[name] = performance.now() - t0;
        if (result.isError) throw new Error(`${name}: ${step.name} failed`);
        step.after?.(result, states[name]);
      }
      ratios.push(times.bridge / times.bare);
      costs.push(times.bare / times.alone);
      overAlone.push(times.bridge / times.alone);
      if (process.env.BENCH_VERBOSE)
        console.log(`  ${step.name.padEnd(26)} ${names.map(name => `${name} ${times[name].toFixed(1).padStart(7)} ms`).join('   ')}`);
    }
    let revokedAfterRestart: boolean | undefined;
    if (index === 0) {
      const shared = await endpoint.publish('share');
      const oldUrl = `ws://127.0.0.1:${shared.port}/${shared.capability}/devtools/browser`;
      const worked = !!(await cdpCall(oldUrl)).result;
      await bridge.supervisor.restart('bench');
      await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/second` });
      const refused = (await cdpCall(oldUrl)).refused === 403;
      const fresh = await endpoint.publish('share');
      const newWorks = !!(await cdpCall(`ws://127.0.0.1:${fresh.port}/${fresh.capability}/devtools/browser`)).result;
      revokedAfterRestart = worked && refused && newWorks && fresh.capability !== shared.capability;
    }
    return {
      ratio: median(ratios),
      costRatio: median(costs),
      overAlone: median(overAlone),
      openMs,
      ...(revokedAfterRestart !== undefined ? { revokedAfterRestart } : {}),
    };
  } finally {
    await viewer.close().catch(() => undefined);
    await endpoint.dispose();
    await withPort.bare.close().catch(() => undefined);
    fs.rmSync(path.dirname(withPort.config), { recursive: true, force: true });
    await alone.close().catch(() => undefined);
    await bridge.dispose();
  }
}

export async function measureCdp(rounds = Number(process.env.BENCH_CDP_ROUNDS ?? 3)): Promise<CdpFigures> {
  const fixture = new FixtureServer();
  await fixture.start();
  try {
    const results = [];
    for (let index = 0; index < rounds; index++) results.push(await round(fixture, index));
    const round3 = (value: number) => Math.round(value * 1000) / 1000;
    return {
      rounds,
      perCallRatio: round3(median(results.map(r => r.ratio))),
      perRound: results.map(r => round3(r.ratio)),
      devtoolsCostRatio: round3(median(results.map(r => r.costRatio))),
      overBareAloneRatio: round3(median(results.map(r => r.overAlone))),
      devtoolsOpenMs: Math.round(median(results.map(r => r.openMs))),
      devtoolsOpenRounds: results.map(r => Math.round(r.openMs)),
      revokedAfterRestart: results[0].revokedAfterRestart === true,
    };
  } finally {
    await fixture.stop();
  }
}
