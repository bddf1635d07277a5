import * as fs from 'fs';
import type { BrowserEngine } from '../../protocol/childMessages';
import type { BrowserLaunchPlan, FoundBrowser } from '../../protocol/childConfig';
import { stripAnsi } from '../results/ansi';
import { BrowserChoice, BrowserName } from './settings';

export type { BrowserLaunchPlan, FoundBrowser } from '../../protocol/childConfig';

export const BROWSER_LABELS: Record<BrowserChoice, string> = {
  auto: 'the first installed of Chrome, Edge and Chromium',
  chrome: 'Google Chrome',
  msedge: 'Microsoft Edge',
  chromium: 'Chromium',
  firefox: 'Firefox (Playwright build)',
  webkit: 'WebKit (Playwright build)',
};

/** Where distributions install Chromium; Playwright's own download is the last resort. */
export function systemChromiumCandidates(platform: NodeJS.Platform = process.platform): string[] {
  switch (platform) {
    case 'linux':
      return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'];
    case 'darwin':
      return ['/Applications/Chromium.app/Contents/MacOS/Chromium'];
    default:
      return [];
  }
}

/** Where Chrome and Edge install by default: the places Playwright's channels look. */
export function brandedCandidates(browser: 'chrome' | 'msedge', platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string[] {
  const win = (...parts: string[]) =>
    ['LOCALAPPDATA', 'PROGRAMFILES', 'PROGRAMFILES(X86)']
      .map(key => env[key])
      .filter((base): base is string => !!base)
      .map(base => [base, ...parts].join('\\'));
  if (browser === 'chrome') {
    switch (platform) {
      case 'linux':
        return ['/opt/google/chrome/chrome'];
      case 'darwin':
        return ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'];
      case 'win32':
        return win('Google', 'Chrome', 'Application', 'chrome.exe');
      default:
        return [];
    }
  }
  switch (platform) {
    case 'linux':
      return ['/opt/microsoft/msedge/msedge'];
    case 'darwin':
      return ['/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge'];
    case 'win32':
      return win('Microsoft', 'Edge', 'Application', 'msedge.exe');
    default:
      return [];
  }
}

/** Chromium-family browsers installed here, in the order `auto` prefers them. */
export function findInstalledBrowsers(
  exists: (p: string) => boolean = fs.existsSync,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): FoundBrowser[] {
  const found: FoundBrowser[] = [];
  for (const browser of ['chrome', 'msedge'] as const) {
    const path = brandedCandidates(browser, platform, env).find(exists);
    if (path) found.push({ browser, path });
  }
  const chromium = systemChromiumCandidates(platform).find(exists);
  if (chromium) found.push({ browser: 'chromium', path: chromium });
  return found;
}

export function planBrowserLaunch(
  choice: BrowserChoice,
  executablePath: string | undefined,
  exists: (p: string) => boolean = fs.existsSync,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): BrowserLaunchPlan {
  const found = findInstalledBrowsers(exists, platform, env);
  const browser: BrowserName = choice === 'auto' ? (found[0]?.browser ?? 'chromium') : choice;
  const engine: BrowserEngine = browser === 'firefox' ? 'firefox' : browser === 'webkit' ? 'webkit' : 'chromium';
  const label = BROWSER_LABELS[browser];
  if (executablePath) {
    const tried = [`the executable path you set: ${executablePath}`];
    return { choice, browser, engine, executablePath, found, tried, summary: `${label} at ${executablePath} (the executable path you set)` };
  }
  if (choice === 'auto') {
    const pick = found[0];
    const notFound = ['chrome', 'msedge', 'chromium'].filter(b => !found.some(f => f.browser === b)).map(b => BROWSER_LABELS[b as BrowserName]);
    if (pick) {
      const why = notFound.length && pick.browser !== 'chrome' ? `, picked automatically: ${notFound.join(' and ')} not found` : ', picked automatically';
      return {
        choice,
        browser,
        engine,
        found,
        // Chrome and Edge through Playwright's channels, as when named; Chromium by its path.
        ...(pick.browser === 'chromium' ? { executablePath: pick.path } : { channel: pick.browser }),
        tried: [`${BROWSER_LABELS[pick.browser]} at ${pick.path} (the first installed of Chrome, Edge and Chromium)`],
        summary: `${BROWSER_LABELS[pick.browser]} at ${pick.path}${why}`,
      };
    }
    const looked = [...brandedCandidates('chrome', platform, env), ...brandedCandidates('msedge', platform, env), ...systemChromiumCandidates(platform)];
    const tried = looked.map(c => `${c} (not found)`);
    tried.push("Playwright's own Chromium download");
    return { choice, browser, engine, found, tried, summary: "Playwright's own Chromium download (no Chrome, Edge or Chromium is installed)" };
  }
  if (choice === 'chrome' || choice === 'msedge') {
    const tried = [`${label} where it installs by default (Playwright channel "${choice}")`];
    return { choice, browser, engine, found, channel: choice, tried, summary: label };
  }
  if (choice === 'chromium') {
    const system = found.find(f => f.browser === 'chromium');
    if (system) {
      const tried = [`system Chromium at ${system.path}`];
      return { choice, browser, engine, found, executablePath: system.path, tried, summary: `Chromium at ${system.path}` };
    }
    const tried = systemChromiumCandidates(platform).map(c => `${c} (not found)`);
    tried.push("Playwright's own Chromium download");
    return { choice, browser, engine, found, tried, summary: "Chromium (Playwright's own download)" };
  }
  return { choice, browser, engine, found, tried: [`Playwright's own ${engine} build`], summary: label };
}

/** Lines of the browser's own output Playwright quotes (`[pid=…][out]`/`[err]`) a message keeps: enough to show a cause. */
const BROWSER_OUTPUT_LINES = 12;
const BROWSER_OUTPUT_LINE_CHARS = 300;

/**
 * What the browser itself printed before it failed, in order, each line once (Playwright quotes it
 * twice: in its browser logs and in its call log).
 */
export function browserOutputOf(message: string): string[] {
  const lines: string[] = [];
  for (const line of stripAnsi(message).split('\n')) {
    const said = /\[pid=\d+\]\[(?:out|err)\] ?(.*)$/.exec(line)?.[1]?.trim();
    if (said && !lines.includes(said)) lines.push(said);
  }
  return lines;
}

/**
 * The one fix a launch failure's message leads with (its Fix line's first sentence), for the failure notice's
 * main button: the setting it names, or the browser download. Read from describeLaunchFailure's own words.
 */
export function leadingFix(message: string): { setting?: string; install: boolean } {
  const fix = /^Fix: (.*)$/m.exec(message)?.[1] ?? '';
  // The first sentence that says what to do: a setting it names, or the download.
  const first = fix.split(/(?<=\.)\s/).find(sentence => /playwrightBridge\.[A-Za-z]|Install Browser/.test(sentence)) ?? '';
  const setting = /(playwrightBridge\.[A-Za-z.]+[A-Za-z])/.exec(first)?.[1];
  return { ...(setting ? { setting } : {}), install: !setting && /Install Browser/.test(first) };
}

/**
 * The message a user (and the model) reads when the browser does not start: what was tried,
 * what went wrong in one line, what the browser itself printed, and the ways to fix it.
 */
export function describeLaunchFailure(plan: BrowserLaunchPlan, error: unknown, platform: NodeJS.Platform = process.platform): string {
  const raw = stripAnsi(error instanceof Error ? error.message : String(error));
  const firstLine =
    raw
      .split('\n')
      .map(l => l.trim())
      .find(l => l && !/^=+/.test(l) && !l.startsWith('╔')) ?? raw;
  const output = browserOutputOf(raw);
  // Hints read what went wrong, never the command line Playwright echoes (`<launching> … --no-sandbox …`).
  const said = raw
    .split('\n')
    .filter(l => !l.includes('<launching>'))
    .join('\n');
  const fixes: string[] = [];
  const notFound = /not found|ENOENT|doesn't exist|Executable doesn't exist|no such file/i.test(said);
  const others = plan.found.filter(f => f.browser !== plan.browser || (plan.executablePath && f.path !== plan.executablePath));
  if (plan.executablePath && notFound) {
    // The one thing wrong is the path the person set: that setting is the fix (a browser found here is the way out).
    const instead = others.length ? ` Clear it to use ${BROWSER_LABELS[others[0].browser]} at ${others[0].path}, found on this machine.` : '';
    fixes.push(`Check the setting playwrightBridge.executablePath: nothing runnable is at ${plan.executablePath}.${instead}`);
  } else if (others.length) {
    // The quickest fix is a browser that is already here: name it, and the setting that picks it.
    const list = others.map(f => `${BROWSER_LABELS[f.browser]} at ${f.path}`).join(', ');
    const orAuto = plan.choice === 'auto' ? '' : ' (or "auto")';
    fixes.push(`Found on this machine: ${list}. Set playwrightBridge.browser to "${others[0].browser}"${orAuto} to use it.`);
  }
  if (!plan.executablePath || !notFound) {
    const install = 'run the command "Playwright Bridge: Install Browser"';
    if (plan.browser === 'chrome' || plan.browser === 'msedge') fixes.push(`Install ${BROWSER_LABELS[plan.browser]}, or ${install}.`);
    else if (plan.browser === 'chromium') {
      fixes.push(`Install Chromium from your system's packages (for example \`apt-get install chromium\`), or ${install}.`);
    } else fixes.push(`Run the command "Playwright Bridge: Install Browser" to download Playwright's ${plan.engine} build.`);
  }
  if (!others.length && !(plan.executablePath && notFound)) {
    fixes.push('Or set playwrightBridge.executablePath to a Chromium-family browser you have, or pick another browser in playwrightBridge.browser.');
  }
  // Only Chromium's own words: the echoed command line holds --no-sandbox whenever the bridge turned the sandbox off.
  if (platform === 'linux' && /no usable sandbox|--no-sandbox|Running as root/i.test(output.join('\n'))) {
    fixes.unshift(
      'Chromium refuses its sandbox here: add "--no-sandbox" to playwrightBridge.launchArgs ' +
        '(the bridge already turns the sandbox off when it runs as root).',
    );
  }
  if (/ProcessSingleton|SingletonLock|profile (?:appears to be )?in use|already in use/i.test(said)) {
    fixes.unshift('Another browser is using this profile: close the other VS Code window that drives it, or set playwrightBridge.profile to "isolated".');
  }
  if (/Missing X server|\$DISPLAY|cannot open display/i.test(said)) {
    fixes.unshift('There is no display for a visible browser: turn on playwrightBridge.headless (the panel shows the page anyway).');
  }
  return [
    `Playwright Bridge could not start ${BROWSER_LABELS[plan.browser]}.`,
    `Tried: ${plan.tried.join('; ')}.`,
    `Error: ${firstLine}`,
    ...(output.length ? ['The browser printed:', ...output.slice(0, BROWSER_OUTPUT_LINES).map(line => `  ${line.slice(0, BROWSER_OUTPUT_LINE_CHARS)}`)] : []),
    ...(output.length > BROWSER_OUTPUT_LINES ? [`  (${output.length - BROWSER_OUTPUT_LINES} more lines not shown)`] : []),
    `Fix: ${fixes.join(' ')}`,
  ].join('\n');
}
