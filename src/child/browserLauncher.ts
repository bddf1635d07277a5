import * as fs from 'fs';
import type { Browser, BrowserContext, BrowserType, LaunchOptions } from 'playwright';
import { describeLaunchFailure } from '../core/settings/browserDiscovery';
import { ChildConfig } from '../core/childProcess/childConfig';

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
  /** Closes the browser on purpose; `onLost` is not called for this. */
  close(): Promise<void>;
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
): Promise<LaunchedBrowser> {
  const plan = config.launch;
  const browserType = playwright[plan.engine];
  const options: LaunchOptions = {
    headless: config.headless,
    channel: plan.channel,
    executablePath: plan.executablePath,
    args: config.launchArgs,
    // The child decides when the browser goes; signals to the child must not race it.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  };
  if (plan.engine === 'chromium') options.chromiumSandbox = config.chromiumSandbox;

  let context: BrowserContext;
  let browser: Browser | null;
  try {
    if (config.userDataDir) {
      fs.mkdirSync(config.userDataDir, { recursive: true });
      context = await browserType.launchPersistentContext(config.userDataDir, { ...options, viewport: config.viewport });
      browser = context.browser();
    } else {
      browser = await browserType.launch(options);
      context = await browser.newContext({ viewport: config.viewport });
    }
  } catch (error) {
    throw new Error(describeLaunchFailure(plan, error));
  }

  let closing = false;
  const lost = () => {
    if (!closing) onLost('the browser exited unexpectedly (it crashed, was killed, or its window was closed).');
    closing = true;
  };
  if (browser) browser.on('disconnected', lost);
  else context.on('close', lost);

  return {
    context,
    browser,
    async close() {
      if (closing) return;
      closing = true;
      try {
        if (browser) await browser.close();
        else await context.close();
      } catch {
        // Already gone: nothing left to close.
      }
    },
  };
}
