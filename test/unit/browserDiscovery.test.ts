import * as assert from 'assert';
import { brandedCandidates, describeLaunchFailure, leadingFix, planBrowserLaunch } from '../../src/core/settings/browserDiscovery';

describe('browser discovery', () => {
  it('uses Playwright channels for branded browsers', () => {
    assert.deepStrictEqual(planBrowserLaunch('chrome', undefined, () => false, 'linux').channel, 'chrome');
    assert.deepStrictEqual(planBrowserLaunch('msedge', undefined, () => false, 'linux').channel, 'msedge');
  });

  it("finds the system Chromium before Playwright's own download", () => {
    const plan = planBrowserLaunch('chromium', undefined, p => p === '/usr/bin/chromium-browser', 'linux');
    assert.strictEqual(plan.executablePath, '/usr/bin/chromium-browser');
    const none = planBrowserLaunch('chromium', undefined, () => false, 'linux');
    assert.strictEqual(none.executablePath, undefined);
    assert.deepStrictEqual(none.tried, [
      '/usr/bin/chromium (not found)',
      '/usr/bin/chromium-browser (not found)',
      '/snap/bin/chromium (not found)',
      "Playwright's own Chromium download",
    ]);
  });

  it('lets the executable path setting win for every browser', () => {
    const plan = planBrowserLaunch('firefox', '/opt/ff/firefox', () => false, 'linux');
    assert.strictEqual(plan.engine, 'firefox');
    assert.strictEqual(plan.executablePath, '/opt/ff/firefox');
  });

  it('says what was tried and how to fix a missing Chrome', () => {
    const plan = planBrowserLaunch('chrome', undefined, () => false, 'linux');
    const message = describeLaunchFailure(
      plan,
      new Error('\u001b[31mChromium distribution \'chrome\' is not found at /opt/google/chrome/chrome\u001b[39m\nRun "npx playwright install chrome"'),
      'linux',
    );
    assert.match(message, /^Playwright Bridge could not start Google Chrome\./);
    assert.match(message, /Tried: Google Chrome where it installs by default/);
    assert.match(message, /Error: Chromium distribution 'chrome' is not found at \/opt\/google\/chrome\/chrome$/m);
    assert.match(message, /Install Google Chrome, or run the command "Playwright Bridge: Install Browser"/);
    assert.match(message, /playwrightBridge\.executablePath/);
    assert.ok(!message.includes('\u001b'), 'no terminal colour codes');
  });

  it('points at the setting when the executable path is wrong', () => {
    const plan = planBrowserLaunch('chromium', '/nope/chromium', () => false, 'linux');
    const message = describeLaunchFailure(plan, new Error("Failed to launch chromium because executable doesn't exist at /nope/chromium"), 'linux');
    assert.match(message, /Tried: the executable path you set: \/nope\/chromium/);
    assert.match(message, /Check the setting playwrightBridge.executablePath: nothing runnable is at \/nope\/chromium/);
  });

  it('a wrong executable path is the one thing wrong: its setting leads the notice, with the browser found here as the way out, and no download offered', () => {
    const plan = planBrowserLaunch('auto', '/nope/chromium', path => path === '/usr/bin/chromium', 'linux');
    const message = describeLaunchFailure(plan, new Error("Failed to launch chromium because executable doesn't exist at /nope/chromium"), 'linux');
    assert.match(
      message,
      /Fix: Check the setting playwrightBridge\.executablePath: nothing runnable is at \/nope\/chromium\. Clear it to use Chromium at \/usr\/bin\/chromium/,
    );
    assert.doesNotMatch(message, /Install Browser|"auto"/, `neither the download nor a setting it already has: ${message}`);
    assert.deepStrictEqual(leadingFix(message), { setting: 'playwrightBridge.executablePath', install: false });
  });

  it('with browser already "auto", the notice never says to set it to "auto"; a missing Chrome leads with the download', () => {
    const auto = planBrowserLaunch('auto', undefined, path => path === '/usr/bin/chromium' || path === '/opt/google/chrome/chrome', 'linux');
    const crashed = describeLaunchFailure(auto, new Error('Browser closed unexpectedly'), 'linux');
    assert.match(crashed, /Set playwrightBridge\.browser to "chromium" to use it/, `the other browser found here is offered: ${crashed}`);
    assert.doesNotMatch(crashed, /or "auto"/, crashed);
    const chrome = planBrowserLaunch('chrome', undefined, () => false, 'linux');
    const missing = describeLaunchFailure(chrome, new Error("Chromium distribution 'chrome' is not found at /opt/google/chrome/chrome"), 'linux');
    assert.deepStrictEqual(leadingFix(missing), { install: true });
  });

  it('explains a locked profile, a missing display and the root sandbox', () => {
    const plan = planBrowserLaunch('chromium', '/usr/bin/chromium', () => true, 'linux');
    assert.match(describeLaunchFailure(plan, new Error('Failed to create a ProcessSingleton for your profile directory'), 'linux'), /profile to "isolated"/);
    assert.match(describeLaunchFailure(plan, new Error('Missing X server or $DISPLAY'), 'linux'), /turn on playwrightBridge.headless/);
    const asRoot =
      '<launching> /usr/bin/chromium --headless\n<launched> pid=7\n[pid=7][err] [7:7:ERROR:zygote_host_impl_linux.cc(101)] ' +
      'Running as root without --no-sandbox is not supported. See https://crbug.com/638180.';
    assert.match(describeLaunchFailure(plan, new Error(asRoot), 'linux'), /Chromium refuses its sandbox here: add "--no-sandbox"/);
  });

  it('keeps what the browser printed, and reads hints only from it, never from the command line Playwright echoes', () => {
    const plan = planBrowserLaunch('chromium', '/tmp/bogus.sh', () => true, 'linux');
    // Playwright's message for a program that printed a line and exited 1 (as root: the sandbox is off, so --no-sandbox is echoed).
    const launchLog =
      '<launching> /tmp/bogus.sh --disable-extensions --headless --no-sandbox --user-data-dir=/tmp/p --remote-debugging-pipe\n' +
      '<launched> pid=42\n[pid=42][out] Bogus browser script\n';
    const raw =
      `browserType.launch: Target page, context or browser has been closed\nBrowser logs:\n\n${launchLog}Call log:\n` +
      '\u001b[2m  - <launching> /tmp/bogus.sh --no-sandbox\u001b[22m\n\u001b[2m  - [pid=42][out] Bogus browser script\u001b[22m\n' +
      '\u001b[2m  - [pid=42] <process did exit: exitCode=1, signal=null>\u001b[22m\n';
    const message = describeLaunchFailure(plan, new Error(raw), 'linux');
    assert.match(message, /^The browser printed:\n {2}Bogus browser script\nFix: /m);
    assert.strictEqual(message.split('Bogus browser script').length, 2, `printed once:\n${message}`);
    assert.doesNotMatch(message, /sandbox/i);
  });

  describe('auto (the default)', () => {
    const only =
      (...paths: string[]) =>
      (p: string) =>
        paths.includes(p);

    it('takes Chrome first, then Edge, then the system Chromium, and says which and why', () => {
      const chrome = planBrowserLaunch('auto', undefined, only('/opt/google/chrome/chrome', '/opt/microsoft/msedge/msedge', '/usr/bin/chromium'), 'linux');
      assert.deepStrictEqual([chrome.browser, chrome.channel, chrome.executablePath], ['chrome', 'chrome', undefined]);
      const edge = planBrowserLaunch('auto', undefined, only('/opt/microsoft/msedge/msedge', '/usr/bin/chromium'), 'linux');
      assert.deepStrictEqual([edge.browser, edge.channel], ['msedge', 'msedge']);
      const chromium = planBrowserLaunch('auto', undefined, only('/usr/bin/chromium'), 'linux');
      assert.deepStrictEqual(
        [chromium.browser, chromium.engine, chromium.channel, chromium.executablePath],
        ['chromium', 'chromium', undefined, '/usr/bin/chromium'],
      );
      assert.strictEqual(chromium.summary, 'Chromium at /usr/bin/chromium, picked automatically: Google Chrome and Microsoft Edge not found');
    });

    it("falls back to Playwright's own Chromium when nothing is installed, listing every place it looked", () => {
      const plan = planBrowserLaunch('auto', undefined, () => false, 'linux');
      assert.deepStrictEqual([plan.browser, plan.executablePath, plan.channel], ['chromium', undefined, undefined]);
      assert.deepStrictEqual(plan.tried, [
        '/opt/google/chrome/chrome (not found)',
        '/opt/microsoft/msedge/msedge (not found)',
        '/usr/bin/chromium (not found)',
        '/usr/bin/chromium-browser (not found)',
        '/snap/bin/chromium (not found)',
        "Playwright's own Chromium download",
      ]);
    });

    it('looks where Chrome and Edge install on Windows', () => {
      const env = { LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local', PROGRAMFILES: 'C:\\Program Files' };
      assert.deepStrictEqual(brandedCandidates('chrome', 'win32', env), [
        'C:\\Users\\me\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe',
        'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
      ]);
      const plan = planBrowserLaunch('auto', undefined, p => p === 'C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe', 'win32', env);
      assert.strictEqual(plan.browser, 'msedge');
    });
  });

  it('names the installed browser in the fix when the chosen one is missing', () => {
    const plan = planBrowserLaunch('chrome', undefined, p => p === '/usr/bin/chromium', 'linux');
    const message = describeLaunchFailure(plan, new Error("Chromium distribution 'chrome' is not found at /opt/google/chrome/chrome"), 'linux');
    assert.match(message, /^Playwright Bridge could not start Google Chrome\./);
    assert.match(message, /Found on this machine: Chromium at \/usr\/bin\/chromium\. Set playwrightBridge\.browser to "chromium" \(or "auto"\) to use it\./);
  });
});
