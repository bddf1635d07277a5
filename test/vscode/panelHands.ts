/**
 * A person's hands in the browser panel, for the real-VS-Code suite: the launcher finds the panel's
 * webview frame in the workbench page and clicks, types or uses the address bar there with
 * Playwright, as a person would with a mouse and keyboard.
 */
import type { Frame, Page } from 'playwright-core';

export type PanelAct =
  | { action: 'click'; x: number; y: number }
  | { action: 'type'; text: string }
  | { action: 'address'; url: string }
  | { action: 'tab'; index: number }
  | { action: 'button'; id: string }
  /** Clicks the last Activity row whose title holds this text (time travel: shows that step). */
  | { action: 'row'; text: string }
  /** Reads what the chat input holds as attachments (their labels), from the workbench's DOM. */
  | { action: 'chatAttachments' }
  /** Chooses an option of a select (the size picker, a filter). */
  | { action: 'select'; id: string; value: string }
  /** Clicks the last Network row whose URL holds this text (opens its details). */
  | { action: 'request'; text: string }
  /**
   * Measures in the webview itself, with its own performance.now() (the bench's panel figures): `filter`
   * types each text into a filter box and times each keystroke to the frame that shows it; `frames` records
   * frame intervals and the requests listed for `seconds`; `detail` opens the last request whose URL holds
   * `text` `times` times and times each to its response body drawn. The answer is JSON.
   */
  | { action: 'measure'; task: 'filter'; filterId: string; texts: string[] }
  | { action: 'measure'; task: 'frames'; seconds: number }
  | { action: 'measure'; task: 'detail'; text: string; times: number };

/** The visible panel that shows a picture of the page (the editor tab when both are open). */
async function panelFrame(page: Page): Promise<Frame> {
  for (let attempt = 0; attempt < 50; attempt++) {
    for (const frame of page.frames()) {
      const picture = await frame.$('#frame').catch(() => null);
      if (picture && (await picture.isVisible().catch(() => false))) return frame;
    }
    await new Promise(resolve => setTimeout(resolve, 100));
  }
  throw new Error('no visible browser panel with a picture of the page');
}

export async function actInPanel(page: Page, act: PanelAct): Promise<string | void> {
  if (act.action === 'chatAttachments') {
    // The chat input part lists its attachments as elements with labels; read every label there.
    return JSON.stringify(await page.evaluate(() => [...document.querySelectorAll('.interactive-input-part [class*="attach"]')]
      .map(element => `${element.getAttribute('aria-label') ?? ''} ${element.textContent ?? ''}`.trim()).filter(Boolean)));
  }
  const frame = await panelFrame(page);
  switch (act.action) {
    case 'click': {
      const box = await frame.locator('#frame').boundingBox();
      if (!box) throw new Error('the picture has no box');
      await frame.locator('#frame').click({ position: { x: box.width * act.x, y: box.height * act.y } });
      return;
    }
    case 'type':
      // The keyboard goes where the person's last click put it (the picture's keyboard field).
      await page.keyboard.type(act.text, { delay: 20 });
      return;
    case 'address':
      await frame.locator('#address').fill(act.url);
      await frame.locator('#address').press('Enter');
      return;
    case 'tab':
      await frame.locator('#tabs .tab:not(.tab-new)').nth(act.index).click();
      return;
    case 'button': {
      // An action the narrow header moved into its "more" menu is reached through the menu, as a person would.
      if (await frame.locator(`#more-menu #${act.id}`).count() && await frame.locator('#more-menu').isHidden()) await frame.locator('#more').click();
      await frame.locator(`#${act.id}`).click();
      return;
    }
    case 'row':
      await frame.locator('#activity-list li.call', { hasText: act.text }).last().click();
      return;
    case 'select':
      await frame.locator(`#${act.id}`).selectOption(act.value);
      return;
    case 'request':
      await frame.locator('#network-list li.request', { hasText: act.text }).last().click();
      return;
    case 'measure':
      return JSON.stringify(await frame.evaluate(measureInPanel, act));
  }
}

/** Runs inside the panel's webview (serialized by Playwright): see the `measure` act. */
async function measureInPanel(act: Extract<PanelAct, { action: 'measure' }>): Promise<unknown> {
  const frame = () => new Promise<number>(resolve => requestAnimationFrame(resolve));
  /** After the next frame's paint: its rAF callbacks run before style, layout and paint; a task queued there runs after. */
  const painted = () => new Promise<void>(resolve => requestAnimationFrame(() => setTimeout(resolve, 0)));
  if (act.task === 'filter') {
    const input = document.getElementById(act.filterId) as HTMLInputElement;
    const times: number[] = [];
    for (const text of act.texts) {
      await painted();
      const start = performance.now();
      input.value = text;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await painted();
      times.push(performance.now() - start);
    }
    input.value = '';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    return times;
  }
  if (act.task === 'frames') {
    const list = document.getElementById('network-list')!;
    const ids = new Set<string>();
    const observer = new MutationObserver(records => {
      for (const record of records) for (const node of record.addedNodes) {
        const id = (node as HTMLElement).dataset?.requestId;
        if (id) ids.add(id);
      }
    });
    observer.observe(list, { childList: true });
    // Tasks of this webview's own page that held its thread over 50 ms: what the panel itself cost the frames.
    const longTasks: number[] = [];
    const tasks = new PerformanceObserver(entries => {
      for (const entry of entries.getEntries()) longTasks.push(entry.duration);
    });
    tasks.observe({ type: 'longtask' });
    const intervals: number[] = [];
    let last = await frame();
    const end = last + act.seconds * 1000;
    while (last < end) {
      const now = await frame();
      intervals.push(now - last);
      last = now;
    }
    observer.disconnect();
    tasks.disconnect();
    return { intervals, rows: ids.size, longTasks };
  }
  const times: number[] = [];
  for (let i = 0; i < act.times; i++) {
    const rows = [...document.querySelectorAll<HTMLElement>('#network-list li.request')].filter(row => row.querySelector('.url')?.textContent?.includes(act.text));
    const row = rows.at(-1);
    if (!row) throw new Error(`no request row holds ${act.text}`);
    await painted();
    const start = performance.now();
    row.click();
    // Drawn: the response body's text is in the pane (a GET has no request body of its own).
    while (!document.querySelector('#request-body .body-text pre')) {
      if (performance.now() - start > 30000) throw new Error('the request\'s body did not show within 30 s');
      await frame();
    }
    await painted();
    times.push(performance.now() - start);
    (document.getElementById('request-close') as HTMLButtonElement).click();
  }
  return times;
}
