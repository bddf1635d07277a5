/**
 * npm start: opens a real VS Code with this extension loaded and a small demo workspace.
 * A desktop VS Code (`code` on PATH, with a display) gets --extensionDevelopmentPath. Elsewhere,
 * as on machines that cannot download VS Code, code-server's VS Code server build starts on
 * 127.0.0.1 and the URL to open is printed. A demo site is served on 127.0.0.1 meanwhile.
 * Ctrl-C stops everything it started.
 *
 * With --demo (server build only) a scripted chat model is loaded too, and the window you open
 * plays the test scenario slowly: chat opens a form, signs it, checks the page, takes a screenshot
 * and reads the console and network, while the browser panel shows it.
 */
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { FixtureServer } from '../fixtures/fixtureServer';
import { REPO_ROOT } from '../support/realBridge';
import { cacheRoot, ensureCodeServer } from './codeServerInstall';
import { CodeServerSession, linkExtension } from './codeServerSession';
import { systemChromiumCandidates } from '../../src/core/settings/browserDiscovery';

function findChromium(): string | undefined {
  return systemChromiumCandidates().find(p => fs.existsSync(p));
}

function hasDesktopCode(): boolean {
  if (process.env.PLAYWRIGHT_BRIDGE_VSCODE === 'server') return false;
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return false;
  return spawnSync('code', ['--version'], { stdio: 'ignore' }).status === 0;
}

function writeDemoWorkspace(siteUrl: string): string {
  const folder = path.join(cacheRoot(), 'demo-workspace');
  fs.mkdirSync(path.join(folder, '.vscode'), { recursive: true });
  // No browser settings: `auto` takes Chrome, Edge or the system Chromium, whichever is installed. This README opens first.
  fs.writeFileSync(path.join(folder, '.vscode', 'settings.json'), `${JSON.stringify({ 'workbench.startupEditor': 'readme' }, null, 2)}\n`);
  fs.writeFileSync(
    path.join(folder, 'README.md'),
    [
      '# Playwright Bridge demo',
      '',
      `A demo site runs at ${siteUrl}/ while \`npm start\` runs. The browser panel is in the Playwright Bridge view`,
      '(its icon in the activity bar, or "Playwright Bridge: Show Browser Panel").',
      '',
      "**Chat needs a signed-in chat model**: GitHub Copilot, or any model VS Code's chat offers. Without one,",
      'stop this and run `npm start -- --demo`: a scripted model plays a short session in the panel, no account needed.',
      '',
      'With a model, open chat in agent mode and try:',
      '',
      `- "Open ${siteUrl}/, type Ada into the name field, press Greet and tell me what the page says."`,
      `- "Take a screenshot of ${siteUrl}/ and list its console messages and network requests."`,
      '',
      'The status bar shows the browser state; click it for the log. Commands: "Playwright Bridge: Restart Browser", "Show Log", "Install Browser".',
      '',
    ].join('\n'),
  );
  return folder;
}

async function main(): Promise<void> {
  const site = new FixtureServer();
  await site.start();
  const folder = writeDemoWorkspace(site.url);
  console.log(`[start] demo site: ${site.url}/`);

  const demo = process.argv.includes('--demo');
  if (hasDesktopCode() && !demo) {
    console.log('[start] opening desktop VS Code with the extension loaded');
    const startHelper = path.join(REPO_ROOT, 'test', 'vscode', 'start-helper');
    const code = spawn('code', ['--new-window', `--extensionDevelopmentPath=${REPO_ROOT}`, `--extensionDevelopmentPath=${startHelper}`, folder], {
      stdio: 'inherit',
    });
    code.on('exit', () => console.log('[start] VS Code launched; the demo site stays up until Ctrl-C'));
  } else {
    const install = ensureCodeServer();
    const stateDir = path.join(cacheRoot(), 'start');
    const extensionsDir = path.join(stateDir, 'extensions');
    // The extension is loaded from this clone through a link, so a rebuild (npm run watch) and a window reload pick up changes.
    fs.rmSync(extensionsDir, { recursive: true, force: true });
    linkExtension(REPO_ROOT, extensionsDir);
    // With --demo the test-only scripted chat model plays the scenario in the window you open.
    if (demo) linkExtension(path.join(REPO_ROOT, 'test', 'vscode', 'chat-helper'), extensionsDir);
    // Without it, the browser panel opens beside the demo README (the demo opens its own, in a clean layout).
    else linkExtension(path.join(REPO_ROOT, 'test', 'vscode', 'start-helper'), extensionsDir);
    const session = new CodeServerSession({
      install,
      folder,
      userDataDir: path.join(stateDir, 'user-data'),
      extensionsDir,
      smokeTestDriver: false,
      env: demo ? { ...process.env, PLAYWRIGHT_BRIDGE_DEMO_SITE: site.url, PLAYWRIGHT_BRIDGE_DEMO_STEP_MS: '3000' } : process.env,
      browserPath: findChromium() ?? '/usr/bin/chromium',
      headless: true,
      onLog: line => {
        if (process.env.PLAYWRIGHT_BRIDGE_VERBOSE) console.log(line);
      },
    });
    const port = Number(process.env.PLAYWRIGHT_BRIDGE_PORT ?? 0) || undefined;
    await session.startServer(port);
    console.log(`[start] VS Code ${install.vscodeVersion} (server build from code-server) is running with Playwright Bridge loaded.`);
    console.log(`[start] open ${session.url()} in a browser on this machine (it listens on 127.0.0.1 only).`);
    if (demo)
      console.log('[start] demo: the window you open enables chat, opens the browser panel and plays the scenario with a scripted model (no account needed).');
    console.log('[start] rebuild with `npm run watch` in another terminal and reload the window to pick up changes; Ctrl-C stops everything.');
    const stop = async () => {
      console.log('[start] stopping');
      await session.stop();
      await site.stop();
      process.exit(0);
    };
    process.once('SIGINT', () => void stop());
    process.once('SIGTERM', () => void stop());
    return;
  }
  process.once('SIGINT', () => void site.stop().then(() => process.exit(0)));
}

main().catch(error => {
  console.error(`[start] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
