import * as fs from 'fs';
import type { Browser, BrowserContext, BrowserType, Page } from 'playwright';
import { BrowserConnection, redactEndpoint } from '../core/settings/browserConnection';
import { describeLaunchFailure } from '../core/settings/browserDiscovery';
import { ChildConfig } from '../core/childProcess/childConfig';
import { cdpConnectOptionsOf, contextOptionsOf, launchOptionsOf, persistentLaunchOptionsOf } from './launchOptions';

/** The part of the `playwright` module the launcher needs (the one @playwright/mcp itself loads). */
export interface PlaywrightModule {
  chromium: BrowserType;
  firefox: BrowserType;
  webkit: BrowserType;
}

export interface LaunchedBrowser {
  context: BrowserContext;
  /** The browser, where it can hold more contexts (null for a persistent profile's). */
  browser: Browser | null;
  /** Set for a browser reached over CDP: the tab opened for the agent (the person's own tabs are left alone). */
  agentPage?: Page;
  /** Closes the browser on purpose; `onLost` is not called for this. */
  close(): Promise<void>;
}

/**
 * The one rule for a browser (or context) that can go away: `lost` reports at most once and never
 * after we closed it on purpose; `close` runs at most once and ignores a browser already gone.
 */
export function lossWatch(onLost: (why: string) => void) {
  let closing = false;
  return {
    lost(why: string): void {
      if (!closing) onLost(why);
      closing = true;
    },
    async close(close: () => Promise<unknown>): Promise<void> {
      if (closing) return;
      closing = true;
      await close().catch(() => undefined);
    },
  };
}

/**
 * A context starts from the chosen login profile (its cookies and local storage). The message of a
 * profile that cannot be used names its file, never its content.
 */
async function startFromProfile(context: BrowserContext, file: string | undefined, close: () => Promise<void>): Promise<void> {
  if (!file) return;
  try {
    await context.setStorageState(file);
  } catch (error) {
    await close();
    throw new Error(
      `The login profile at ${file} could not be used (${(error as Error).message.split('\n')[0]}). ` +
        'Save it again, or clear playwrightBridge.loginProfile.',
      { cause: error },
    );
  }
}

/**
 * Launches the configured browser and reports when it goes away without being asked to (crash,
 * killed, window closed by the person). Failures come back as errors whose message says what was
 * tried and how to fix it.
 */
export async function launchBrowser(
  playwright: PlaywrightModule,
  config: ChildConfig,
  onLost: (why: string) => void,
  /** For the clients' contexts: a context of our own even over CDP, and no tab in the person's. */
  use: { forClients?: boolean } = {},
): Promise<LaunchedBrowser> {
  if (config.connection) return connectBrowser(playwright, config, config.connection, onLost, !!use.forClients);
  const plan = config.launch;
  const browserType = playwright[plan.engine];
  const options = launchOptionsOf(config);

  let context: BrowserContext;
  let browser: Browser | null;
  try {
    if (config.userDataDir) {
      fs.mkdirSync(config.userDataDir, { recursive: true });
      context = await browserType.launchPersistentContext(config.userDataDir, { ...persistentLaunchOptionsOf(config), ...contextOptionsOf(config) });
      browser = context.browser();
    } else {
      browser = await browserType.launch(options);
      context = await browser.newContext(contextOptionsOf(config));
    }
  } catch (error) {
    throw new Error(describeLaunchFailure(plan, error), { cause: error });
  }

  const watch = lossWatch(onLost);
  const lost = () => watch.lost('the browser exited unexpectedly (it crashed, was killed, or its window was closed).');
  if (browser) browser.on('disconnected', lost);
  else context.on('close', lost);
  const close = () => watch.close(() => (browser ? browser.close() : context.close()));
  // The person's persistent profile too: a chosen login profile replaces what it kept.
  await startFromProfile(context, config.storageStatePath, close);
  return { context, browser, close };
}

/** Waits before each new attempt to reach an endpoint: a server that restarts gets a few seconds. */
const CONNECT_RETRY_MS = [500, 1000, 2000];

/**
 * Connects to a browser elsewhere (a Playwright server, or CDP). Retries with bounded backoff, then
 * fails with a message naming the endpoint and the fix. Closing only disconnects and closes what we
 * opened: a browser the bridge did not start keeps running.
 */
async function connectBrowser(
  playwright: PlaywrightModule,
  config: ChildConfig,
  connection: BrowserConnection,
  onLost: (why: string) => void,
  forClients: boolean,
): Promise<LaunchedBrowser> {
  const what = connection.protocol === 'cdp' ? "the browser's DevTools (CDP) endpoint" : 'the Playwright server';
  let browser: Browser | undefined;
  let lastError: unknown;
  for (let attempt = 0; !browser; attempt++) {
    try {
      browser =
        connection.protocol === 'cdp'
          ? await playwright.chromium.connectOverCDP(connection.endpoint, cdpConnectOptionsOf(config, connection))
          : // A Playwright server runs whichever engine the browser setting names (Chromium unless Firefox or WebKit).
            await playwright[config.launch.engine].connect(connection.endpoint, { headers: connection.headers, timeout: 15000 });
    } catch (error) {
      lastError = error;
      if (attempt >= CONNECT_RETRY_MS.length) {
        // Playwright's own message may quote the address as given, credentials and all.
        const reason = redactEndpoint((error as Error).message.split('\n')[0]);
        throw new Error(
          `Could not reach ${what} at ${redactEndpoint(connection.endpoint)} (${reason}), after ${attempt + 1} attempts. ` +
            'Start it (or check its address and credentials: Set Connection Credentials), or clear playwrightBridge.connect.endpoint to launch a browser here.',
          { cause: error },
        );
      }
      await new Promise(resolve => setTimeout(resolve, CONNECT_RETRY_MS[attempt]));
    }
  }
  void lastError;
  const connected = browser;
  // CDP: the person's own browser and its logins (its first context); we open a tab of our own in it.
  // A Playwright server: a fresh context in the browser it launched for this connection.
  const ownContext = forClients || connection.protocol !== 'cdp' || connected.contexts().length === 0;
  const context = ownContext
    ? await connected.newContext({ ...contextOptionsOf(config, forClients), storageState: config.storageStatePath })
    : connected.contexts()[0];
  const agentPage = connection.protocol === 'cdp' && !ownContext ? await context.newPage() : undefined;
  const watch = lossWatch(onLost);
  const why = `the connection to ${what} at ${redactEndpoint(connection.endpoint)} was lost (it stopped, restarted or the network dropped).`;
  connected.on('disconnected', () => watch.lost(why));
  return {
    context,
    browser: connected,
    agentPage,
    // Only what we opened: our context, or our tab in the person's; then disconnect.
    close: () =>
      watch.close(async () => {
        if (ownContext) await context.close();
        else await agentPage?.close();
        await connected.close();
      }),
  };
}
