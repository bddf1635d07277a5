/**
 * Save all as HAR, checked as its readers would: the file validates against HAR 1.2 (har-validator, the
 * schema library HAR tools use), and Playwright's own `routeFromHAR` replays a page from it with the
 * server gone (a fresh Chromium, every request answered from the file or aborted).
 */
import * as fs from 'fs';
import { chromium } from 'playwright-core';
import { TEST_BROWSER } from './realBridge';

// har-validator ships no types: its promise API takes the whole HAR and rejects with the schema's errors.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const harValidator = require('har-validator') as { har(data: unknown): Promise<boolean> };

export interface HarCheck {
  valid: boolean;
  problems: string;
  /** The replayed page's text and console, from the file alone. */
  replayed?: { text: string; console: string[] };
}

export async function checkHar(file: string, url: string, waitForConsole?: RegExp): Promise<HarCheck> {
  const har = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  let problems = '';
  const valid = await harValidator.har(har).then(
    () => true,
    (error: { errors?: unknown[]; message?: string }) => {
      problems = JSON.stringify(error.errors ?? error.message).slice(0, 2000);
      return false;
    },
  );
  const browser = await chromium.launch({ executablePath: TEST_BROWSER, headless: true });
  try {
    const context = await browser.newContext();
    // Anything the file does not hold is aborted: nothing reaches a server.
    await context.routeFromHAR(file, { notFound: 'abort' });
    const page = await context.newPage();
    const console: string[] = [];
    page.on('console', message => console.push(message.text()));
    await page.goto(url, { timeout: 15000 });
    if (waitForConsole)
      await page.waitForEvent('console', { predicate: message => waitForConsole.test(message.text()), timeout: 10000 }).catch(() => undefined);
    return { valid, problems, replayed: { text: await page.innerText('body'), console } };
  } catch (error) {
    return { valid, problems: `${problems} replay: ${(error as Error).message.split('\n')[0]}` };
  } finally {
    await browser.close();
  }
}
