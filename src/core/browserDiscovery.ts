import * as fs from 'fs';
import { stripAnsi } from './ansi';
import { BrowserChoice } from './settings';

export type BrowserEngine = 'chromium' | 'firefox' | 'webkit';

/** How the child launches the chosen browser, and what that means in words for error messages. */
export interface BrowserLaunchPlan {
  choice: BrowserChoice;
  engine: BrowserEngine;
  /** Playwright's channel for branded browsers (chrome, msedge). */
  channel?: string;
  executablePath?: string;
  /** Human-readable list of what this plan tries, in order, for the error when it fails. */
  tried: string[];
}

export const BROWSER_LABELS: Record<BrowserChoice, string> = {
  chrome: 'Google Chrome',
  msedge: 'Microsoft Edge',
  chromium: 'Chromium',
  firefox: 'Firefox (Playwright build)',
  webkit: 'WebKit (Playwright build)',
};

/** Where distributions install Chromium; Playwright's own download is the last resort. */
export function systemChromiumCandidates(platform: NodeJS.Platform = process.platform): string[] {
  switch (platform) {
    case 'linux': return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'];
    case 'darwin': return ['/Applications/Chromium.app/Contents/MacOS/Chromium'];
    default: return [];
  }
}

export function planBrowserLaunch(
  choice: BrowserChoice,
  executablePath: string | undefined,
  exists: (p: string) => boolean = fs.existsSync,
  platform: NodeJS.Platform = process.platform,
): BrowserLaunchPlan {
  const engine: BrowserEngine = choice === 'firefox' ? 'firefox' : choice === 'webkit' ? 'webkit' : 'chromium';
  if (executablePath) {
    return { choice, engine, executablePath, tried: [`the executable path you set: ${executablePath}`] };
  }
  if (choice === 'chrome' || choice === 'msedge') {
    return { choice, engine, channel: choice, tried: [`${BROWSER_LABELS[choice]} where it installs by default (Playwright channel "${choice}")`] };
  }
  if (choice === 'chromium') {
    const candidates = systemChromiumCandidates(platform);
    const found = candidates.find(exists);
    if (found) return { choice, engine, executablePath: found, tried: [`system Chromium at ${found}`] };
    const tried = candidates.map(c => `${c} (not found)`);
    tried.push("Playwright's own Chromium download");
    return { choice, engine, tried };
  }
  return { choice, engine, tried: [`Playwright's own ${engine} build`] };
}

/**
 * The message a user (and the model) reads when the browser does not start: what was tried,
 * what went wrong in one line, and the ways to fix it.
 */
export function describeLaunchFailure(plan: BrowserLaunchPlan, error: unknown, platform: NodeJS.Platform = process.platform): string {
  const raw = stripAnsi(error instanceof Error ? error.message : String(error));
  const firstLine = raw.split('\n').map(l => l.trim()).find(l => l && !/^=+/.test(l) && !l.startsWith('╔')) ?? raw;
  const fixes: string[] = [];
  const notFound = /not found|ENOENT|doesn't exist|Executable doesn't exist|no such file/i.test(raw);
  if (plan.executablePath && notFound) fixes.push(`Check the setting playwrightBridge.executablePath: nothing runnable is at ${plan.executablePath}.`);
  if (!plan.executablePath || !notFound) {
    if (plan.choice === 'chrome' || plan.choice === 'msedge') fixes.push(`Install ${BROWSER_LABELS[plan.choice]}, or run the command "Playwright Bridge: Install Browser".`);
    else if (plan.choice === 'chromium') fixes.push('Install Chromium from your system\'s packages (for example `apt-get install chromium`), or run the command "Playwright Bridge: Install Browser".');
    else fixes.push(`Run the command "Playwright Bridge: Install Browser" to download Playwright's ${plan.engine} build.`);
  }
  fixes.push('Or set playwrightBridge.executablePath to a Chromium-family browser you have, or pick another browser in playwrightBridge.browser.');
  if (platform === 'linux' && /no usable sandbox|--no-sandbox|Running as root/i.test(raw)) fixes.unshift('Chromium refuses its sandbox here: add "--no-sandbox" to playwrightBridge.launchArgs (the bridge already turns the sandbox off when it runs as root).');
  if (/ProcessSingleton|SingletonLock|profile (?:appears to be )?in use|already in use/i.test(raw)) fixes.unshift('Another browser is using this profile: close the other VS Code window that drives it, or set playwrightBridge.profile to "isolated".');
  if (/Missing X server|\$DISPLAY|cannot open display/i.test(raw)) fixes.unshift('There is no display for a visible browser: turn on playwrightBridge.headless (the panel shows the page anyway).');
  return [
    `Playwright Bridge could not start ${BROWSER_LABELS[plan.choice]}.`,
    `Tried: ${plan.tried.join('; ')}.`,
    `Error: ${firstLine}`,
    `Fix: ${fixes.join(' ')}`,
  ].join('\n');
}

export const LAUNCH_FAILURE_PREFIX = 'Playwright Bridge could not start';
