/**
 * Secrets against an attacker: a hostile page that asks for one, a frame of another site inside the
 * secret's own site, and a password with quotes, backslashes and markup characters sent as JSON,
 * logged to the console, mirrored into a `value` attribute and written into files. Every place text
 * leaves the bridge is decoded every way and searched for the value. Shared by the real test (which
 * asserts no leak) and `npm run harden` (which writes the figures).
 */
import * as fs from 'fs';
import * as path from 'path';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LiveViewStore } from '../../src/core/liveView/liveViewStore';
import { McpEndpoint } from '../../src/core/mcpDoor/mcpEndpoint';
import { bankSite, evilSite } from '../fixtures/secretSites';
import { connectMcpClient, makeRealBridge, processesMentioning, refOf, textOf } from '../support/realBridge';
import { encodingsOf, reveals } from '../support/secretSpellings';

/** Quotes, a backslash, a slash, markup characters and a space: every escaping rule has work to do. */
export const TRICKY_SECRET = 'Zq8 "hun\\ter2"/<K&x7>\'!';
/** A second secret the agent never types: it must not be readable anywhere either. */
export const UNTYPED_SECRET = 'never-typed-7Rw9';

export interface SecretLeakFigures {
  /** Encodings the search decodes (URL builders, forms, JSON, HTML, base64, twice over): test/support/secretSpellings.ts. */
  forms: number;
  /** Places searched: results at both doors, panel messages, log, picked element, written files, environments, hostile sites. */
  places: number;
  /** (place, spelling) pairs where a value was found, plus hostile pages that received a value. */
  leaks: number;
  leakDetails: string[];
  /** What the user should see besides no leak: the real value reached the bank, the hostile typing was refused. */
  signedIn: boolean;
  refusals: string[];
  maskedInConsole: boolean;
  maskedInPickedElement: boolean;
  filesSearched: number;
}

/** Each place whose text, decoded every way (the tests' own decoders, apart from the mask), holds a value. */
function search(places: Record<string, string[]>, values: string[]): string[] {
  const found: string[] = [];
  for (const value of values) {
    for (const [place, texts] of Object.entries(places)) {
      const hit = texts.find(text => reveals(text, value));
      if (hit !== undefined) found.push(`${place} holds the value, as written or encoded: ${hit.slice(0, 200)}`);
    }
  }
  return found;
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/** Every string inside a message, so a value is found as the panel would show it (not as JSON escapes it). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

export async function secretLeaks(): Promise<SecretLeakFigures> {
  const bank = bankSite();
  const evil = evilSite();
  await bank.start();
  await evil.start();
  // The network group on, as a workspace may turn it on: browser_route could fake the secret's site.
  const bridge = makeRealBridge(
    { capabilities: ['network'] },
    {},
    {
      secrets: { SITE_PASSWORD: { value: TRICKY_SECRET, origins: [bank.url] }, OTHER_TOKEN: { value: UNTYPED_SECRET, origins: [bank.url] } },
    },
  );
  const store = new LiveViewStore(bridge.supervisor, () => 'Chromium');
  const endpoint = new McpEndpoint(bridge.supervisor, '0.0.0-test', () => undefined);
  const panel: string[] = [];
  store.onMessage(message => panel.push(...stringsOf(message)));
  bridge.supervisor.onObservation(event => {
    if (event.kind !== 'frame') panel.push(...stringsOf(event));
  });
  bridge.supervisor.onToolCall(record => panel.push(...stringsOf({ ...record, thumbnail: undefined })));
  let mcp: Client | undefined;
  try {
    bridge.supervisor.setLiveView({ enabled: true, maxWidth: 320, maxHeight: 320 });
    const lmResults: string[] = [];
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await bridge.supervisor.callTool(name, args, { door: 'tool' });
      lmResults.push(textOf(result));
      return result;
    };
    const text = async (name: string, args: Record<string, unknown> = {}) => textOf(await call(name, args));

    // The hostile page asks for the secret; the agent, taken in, types its name.
    const refusals: string[] = [];
    await call('browser_navigate', { url: `${evil.url}/ask` });
    const ask = await text('browser_snapshot');
    const typedOnEvil = await call('browser_type', {
      element: 'Your SITE_PASSWORD',
      target: refOf(ask, /textbox "Your SITE_PASSWORD"/),
      text: 'SITE_PASSWORD',
    });
    if (typedOnEvil.isError) refusals.push(textOf(typedOnEvil));
    const filled = await call('browser_fill_form', {
      fields: [{ name: 'pw', type: 'textbox', target: refOf(ask, /textbox "Your SITE_PASSWORD"/), value: 'OTHER_TOKEN' }],
    });
    if (filled.isError) refusals.push(textOf(filled));
    const evilAfter = await text('browser_snapshot');

    // The secret's own site, with a frame of the hostile one inside: the frame's field is not the bank's.
    await call('browser_navigate', { url: `${bank.url}/with-frame?src=${encodeURIComponent(`${evil.url}/ask`)}` });
    const framed = await text('browser_snapshot');
    const inFrame = await call('browser_type', { element: 'frame field', target: refOf(framed, /textbox "Your SITE_PASSWORD"/), text: 'SITE_PASSWORD' });
    if (inFrame.isError) refusals.push(textOf(inFrame));

    // A popup of the bank opened by the hostile page: the check must look at the tab upstream types into.
    await call('browser_tabs', { action: 'new', url: `${evil.url}/pop?bank=${encodeURIComponent(`${bank.url}/login-json`)}` });
    const pop = await text('browser_snapshot');
    const popped = await call('browser_type', { element: 'pw', target: refOf(pop, /textbox "Your SITE_PASSWORD"/), text: 'SITE_PASSWORD' });
    if (popped.isError) refusals.push(textOf(popped));
    const bySelector = await call('browser_type', { element: 'pw', target: '#pw', text: 'SITE_PASSWORD' });
    if (bySelector.isError) refusals.push(textOf(bySelector));
    await call('browser_tabs', { action: 'close' });

    // A page the agent routed under the bank's own origin: the origin is the bank's, the content is not.
    await call('browser_route', { pattern: '**/fake', body: '<title>Fake</title><label>Password <input id="pw"></label>', contentType: 'text/html' });
    await call('browser_navigate', { url: `${bank.url}/fake` });
    const fake = await text('browser_snapshot');
    const routed = await call('browser_type', { element: 'Password', target: refOf(fake, /textbox "Password"/), text: 'SITE_PASSWORD' });
    if (routed.isError) refusals.push(textOf(routed));
    await call('browser_unroute', {});

    // The bank itself: the value is typed, posted as JSON, logged, mirrored into an attribute.
    await call('browser_navigate', { url: `${bank.url}/login-json` });
    const form = await text('browser_snapshot');
    await call('browser_type', { element: 'User', target: refOf(form, /textbox "User"/), text: 'ada' });
    await call('browser_type', { element: 'Password', target: refOf(form, /textbox "Password"/), text: 'SITE_PASSWORD' });
    // Copy from the bank's field, to paste it elsewhere: refused while secrets are set.
    const copied = await call('browser_press_key', { key: 'ControlOrMeta+c' });
    if (copied.isError) refusals.push(textOf(copied));
    await call('browser_click', { element: 'Sign in', target: refOf(form, /button "Sign in"/) });
    await call('browser_wait_for', { text: 'Signed in', time: 10 });
    const signedIn = bank.bodiesOf('/api/login').some(body => (JSON.parse(body) as { password?: string }).password === TRICKY_SECRET);
    await text('browser_console_messages', { level: 'info' });
    const requests = await text('browser_network_requests', {});
    const index = /(\d+)\.\s*\[POST\][^\n]*\/api\/login/.exec(requests)?.[1];
    if (index) {
      await text('browser_network_request', { index: Number(index) });
      await text('browser_network_request', { index: Number(index), part: 'request-body' });
    }
    await text('browser_console_messages', { level: 'info', filename: 'console-check.log' });
    await text('browser_network_requests', { filename: 'network-check.md' });
    await text('browser_snapshot', { filename: 'snapshot-check.yml' });
    await text('browser_evaluate', { function: '() => document.getElementById("pw").outerHTML' });

    // Add to Chat: the person picks the password field in the panel.
    const center = await text('browser_evaluate', {
      function: '() => { const r = document.getElementById("pw").getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }',
    });
    const [x, y] = (/\[\s*([\d.]+),\s*([\d.]+)\s*\]/.exec(center) ?? []).slice(1).map(Number);
    const picked = await bridge.supervisor.ask('pick', { phase: 'choose', x: x / bridge.config.viewport.width, y: y / bridge.config.viewport.height });
    const pickedTexts = stringsOf(picked);

    // The other door, as an MCP client would read the same page.
    const address = await endpoint.start();
    mcp = await connectMcpClient(address, 'secrets-attack');
    const mcpResults: string[] = [];
    for (const [name, args] of [
      ['browser_snapshot', {}],
      ['browser_console_messages', { level: 'info' }],
      ['browser_network_requests', {}],
      ...(index ? [['browser_network_request', { index: Number(index) }]] : []),
    ] as [string, Record<string, unknown>][]) {
      mcpResults.push(textOf((await mcp.callTool({ name, arguments: args })) as CallToolResult));
    }
    panel.push(...stringsOf(store.snapshot()));

    const files = filesUnder(bridge.config.mcp.outputDir);
    const environments: string[] = [];
    const childPid = bridge.supervisor.status.pid;
    for (const pid of [...new Set([...(childPid ? [childPid] : []), ...processesMentioning(bridge.scratch)])]) {
      try {
        environments.push(fs.readFileSync(`/proc/${pid}/environ`, 'utf8'));
      } catch {
        /* gone */
      }
    }
    const places: Record<string, string[]> = {
      'results (language-model door)': lmResults,
      'results (MCP door)': mcpResults,
      'panel messages and activity': panel,
      log: bridge.logs,
      'picked element (Add to Chat)': pickedTexts,
      'files the bridge wrote': files.map(file => fs.readFileSync(file, 'utf8')),
      'process environments': environments,
      'hostile page (what it received and showed)': [...evil.requests.map(r => r.body), evilAfter, ...lmResults.filter(r => r.includes('Checked:'))],
    };
    const leakDetails = search(places, [TRICKY_SECRET, UNTYPED_SECRET]);
    // The hostile page received something from typing at all (even a masked or reversed form is a leak).
    const beacons = evil.bodiesOf('/beacon').filter(Boolean);
    if (beacons.length) leakDetails.push(`the hostile page received ${beacons.length} beacon(s): ${beacons[0].slice(0, 80)}`);
    const reversed = [...TRICKY_SECRET].reverse().join('');
    if ([...lmResults, ...mcpResults].some(r => r.includes(reversed))) leakDetails.push("the hostile page's reversed echo reached a result");
    return {
      forms: Object.keys(encodingsOf(TRICKY_SECRET)).length,
      places: Object.keys(places).length,
      leaks: leakDetails.length,
      leakDetails,
      signedIn,
      refusals,
      maskedInConsole: panel.some(line => line.includes('<secret>SITE_PASSWORD</secret>') && line.includes('login body')),
      maskedInPickedElement: pickedTexts.some(t => t.includes('<secret>SITE_PASSWORD</secret>')),
      filesSearched: files.length,
    };
  } finally {
    await mcp?.close().catch(() => undefined);
    await endpoint.dispose();
    store.dispose();
    await bridge.dispose();
    await bank.stop();
    await evil.stop();
  }
}
