/**
 * For the bench: a plain Node process that drives the same kind of browser with playwright-core
 * directly, no bridge and no MCP, so what one more bare context with one page costs can be set
 * beside what one more bridge session costs. Reads commands on stdin, one a line:
 * `open <url>` opens a context, a page and loads the url twice (as the bridge's session round does),
 * each load followed by the page's AI snapshot, as upstream's browser_navigate takes one (that is
 * upstream's work, not the bridge's, so it belongs on both sides of the ratio);
 * each answers `ok` or `error <message>` on stdout.
 */
import * as readline from 'readline';
import { chromium } from 'playwright-core';

async function main(): Promise<void> {
  const [executablePath, width, height] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
  // As the bridge launches it: headless, and without the sandbox when running as root (Chromium refuses otherwise).
  const browser = await chromium.launch({ executablePath, headless: true, chromiumSandbox: process.getuid?.() !== 0 });
  process.stdout.write('ready\n');
  for await (const line of readline.createInterface({ input: process.stdin })) {
    const [command, url] = line.split(' ');
    try {
      if (command !== 'open') throw new Error(`unknown command ${command}`);
      const context = await browser.newContext({ viewport: { width, height } });
      const page = await context.newPage();
      for (let load = 0; load < 2; load++) {
        await page.goto(url);
        await (page as unknown as { ariaSnapshot(options: { mode: 'ai' }): Promise<string> }).ariaSnapshot({ mode: 'ai' });
      }
      process.stdout.write('ok\n');
    } catch (error) {
      process.stdout.write(`error ${(error as Error).message.split('\n')[0]}\n`);
    }
  }
  await browser.close();
}

void main();
