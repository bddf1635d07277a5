import * as path from 'path';
import { devices, type BrowserContextOptions, type ConnectOverCDPOptions, type LaunchOptions } from 'playwright';
import { ChildConfig } from '../core/childProcess/childConfig';
import { BrowserConnection } from '../core/settings/browserConnection';
import type { DeviceInfo } from '../protocol/childMessages';

/**
 * How the child starts or reaches its browser, with the options bare @playwright/mcp uses for the
 * same browser, so a tool call behaves the same through the bridge. The launcher uses these, and
 * upstreamConfig.ts describes them to upstream: one source, so browser_get_config tells the truth.
 */

/**
 * Chromium's switch that hides the automation flag (`navigator.webdriver`): upstream adds it to every
 * Chromium launch unless the person passed their own `--disable-blink-features`.
 */
export const HIDE_AUTOMATION_ARG = '--disable-blink-features=AutomationControlled';

/**
 * Where traces go: `traces` in the output folder, as upstream's traces directory. Without it Playwright
 * writes them into the browser's private temp folder and deletes them with it, while
 * browser_stop_tracing links here.
 */
export function tracesDirOf(config: ChildConfig): string {
  return path.resolve(config.mcp.outputDir, 'traces');
}

/**
 * Chromium's error page loads a failed address again by itself (after 1 s, 5 s, 30 s…): each a new request in the
 * Network pane and a page the agent did not ask for. A failed navigation is one request, as the person made it.
 */
export const NO_AUTO_RELOAD_ARG = '--disable-auto-reload';

/** The arguments the browser is launched with: the person's, upstream's automation switch and no auto-reload for Chromium. */
export function launchArgsOf(config: ChildConfig): string[] {
  const args = [...config.launchArgs];
  if (config.launch.engine === 'chromium' && !args.some(arg => arg.includes('--disable-blink-features'))) args.push(HIDE_AUTOMATION_ARG);
  if (config.launch.engine === 'chromium' && !args.some(arg => arg.includes('auto-reload'))) args.push(NO_AUTO_RELOAD_ARG);
  return args;
}

/** What a launched browser (or persistent profile) is started with. */
export function launchOptionsOf(config: ChildConfig): LaunchOptions {
  const options: LaunchOptions = {
    headless: config.headless,
    channel: config.launch.channel,
    executablePath: config.launch.executablePath,
    args: launchArgsOf(config),
    tracesDir: tracesDirOf(config),
    // The child decides when the browser goes; signals to the child must not race it.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  };
  if (config.launch.engine === 'chromium') options.chromiumSandbox = config.chromiumSandbox;
  return options;
}

/**
 * A persistent profile is the person's browser: upstream launches it with the extensions it holds
 * (it drops Playwright's `--disable-extensions`), and so does the bridge.
 */
export function persistentLaunchOptionsOf(config: ChildConfig): LaunchOptions {
  return { ...launchOptionsOf(config), ignoreDefaultArgs: ['--disable-extensions'] };
}

/**
 * Connecting to the person's browser over CDP. `noDefaults`: the person's own tabs keep what they set
 * (emulated media, viewport); without it Playwright resets them on connecting. `artifactsDir`: traces
 * of its contexts land where browser_stop_tracing links, as for a launched browser.
 */
export function cdpConnectOptionsOf(config: ChildConfig, connection: BrowserConnection): ConnectOverCDPOptions {
  return { headers: connection.headers, timeout: 15000, noDefaults: true, artifactsDir: tracesDirOf(config) };
}

/**
 * The window's context: at the configured viewport, or as the Playwright device the person chose in the
 * panel (its viewport, pixel ratio, user agent, touch). `forClients`: the MCP clients' own contexts keep the
 * configured viewport: the person's device is for the browser they watch.
 */
export function contextOptionsOf(config: ChildConfig, forClients = false): BrowserContextOptions {
  const device = config.device && !forClients ? devices[config.device] : undefined;
  if (!device) return { viewport: config.viewport };
  const { defaultBrowserType: _browser, ...options } = device;
  // Firefox has no isMobile; Playwright refuses it there.
  return config.launch.engine === 'firefox' ? { ...options, isMobile: undefined } : options;
}

/** Playwright's devices as the panel's picker lists them: portrait ones only (landscape is the same device turned). */
export function deviceList(): DeviceInfo[] {
  return Object.entries(devices)
    .filter(([name]) => !/landscape/i.test(name))
    .map(([name, device]) => ({
      name,
      width: device.viewport.width,
      height: device.viewport.height,
      scale: device.deviceScaleFactor,
      mobile: device.isMobile,
      touch: device.hasTouch,
    }));
}
