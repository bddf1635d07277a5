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
  /** Clicks a button of the last DevTools card in Activity (Open trace, Add to Chat), the Activity pane shown first. */
  | { action: 'cardButton'; label: string }
  /** Reads what the chat input holds as attachments (their labels), from the workbench's DOM. */
  | { action: 'chatAttachments' }
  /**
   * The workbench around the panel, read as a person sees it: the notifications (message and buttons), our
   * status bar item's text, and the Settings editor's search query when one is open. The answer is JSON.
   */
  | { action: 'workbench' }
  /** Clicks a button of the notification whose message holds `text` (in the notification center). */
  | { action: 'notificationButton'; text: string; label: string }
  /** Presses a key (Playwright's names: "F1", "Control+Shift+P", "Shift+Escape") where the keyboard's focus is, as a person would. */
  | { action: 'key'; key: string }
  /**
   * Where the keyboard is: the id of the panel's focused element (null for none), and whether VS Code's quick
   * input (the command palette) shows in the workbench. The answer is JSON.
   */
  | { action: 'focus' }
  /** Chooses an option of a select (the size picker, a filter). */
  | { action: 'select'; id: string; value: string }
  /** Clicks the last Network row whose URL (its tooltip) holds this text (opens its details). */
  | { action: 'request'; text: string }
  /**
   * Measures in the webview itself, with its own performance.now() (the bench's panel figures): `filter`
   * types each text into a filter box and times each keystroke to the frame that shows it; `frames` records
   * frame intervals, the requests listed and long tasks for `seconds`; `detail` opens `times` requests
   * whose URL holds `text` (measureDetails: each once, newest first, the pointer resting `restMs` on the row
   * before the click) and times each to its response body drawn. The answer is JSON.
   */
  | { action: 'measure'; task: 'filter'; filterId: string; texts: string[] }
  | { action: 'measure'; task: 'frames'; seconds: number }
  | { action: 'measure'; task: 'detail'; text: string; times: number; restMs: number }
  /** Chooses each size preset in turn (`presets`, like "390x844") and times each choice to the first picture drawn at that size. */
  | { action: 'measure'; task: 'resize'; presets: string[] }
  /**
   * The picture's colors as drawn: `start` samples the middle of every picture the panel draws from now on (its
   * average color and the webview's Date.now()), `read` answers those samples as JSON (the bench's picture stall figure).
   */
  | { action: 'measure'; task: 'pictureColors'; phase: 'start' | 'read' }
  /** The Network list's Size cells as they read (transferred, then resource), for the rows in sight. */
  | { action: 'measure'; task: 'sizes' }
  /** A CPU profile of the workbench's page (the panel's webview runs on its thread) for `seconds`: the functions that took the most time, self. */
  | { action: 'profile'; seconds: number }
  /**
   * Waits until some frame of the workbench (a webview's, or a frame inside one, as DevTools in its editor tab)
   * whose URL holds `urlPart` shows `text` (a whole element's text; `part`: within one), for up to `seconds`;
   * answers the last two segments of that frame's path (never the address's secret).
   */
  | { action: 'frameText'; text: string; seconds: number; urlPart?: string; part?: boolean };

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

/** The first frame found showing `text` (DevTools' own shadow DOM is pierced), polled until `seconds` pass. */
async function frameShowing(page: Page, { text, seconds, urlPart = '', part = false }: Extract<PanelAct, { action: 'frameText' }>): Promise<string> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (!frame.url().includes(urlPart)) continue;
      const shown = await frame
        .getByText(text, { exact: !part })
        .first()
        .isVisible()
        .catch(() => false);
      if (shown) return new URL(frame.url()).pathname.split('/').slice(-2).join('/');
    }
    await new Promise(resolve => setTimeout(resolve, 250));
  }
  // Which frames there were, by origin and the first segment of their path (never a capability further on).
  const frames = page.frames().map(frame => {
    const url = new URL(frame.url());
    return `${url.origin}/${url.pathname.split('/')[1] ?? ''}`;
  });
  throw new Error(`no frame showed "${text}" within ${seconds} s; frames: ${frames.join(', ')}`);
}

export async function actInPanel(page: Page, act: PanelAct): Promise<string | void> {
  if (act.action === 'chatAttachments') {
    // The chat input part lists its attachments as elements with labels; read every label there.
    return JSON.stringify(
      await page.evaluate(() =>
        [...document.querySelectorAll('.interactive-input-part [class*="attach"]')]
          .map(element => `${element.getAttribute('aria-label') ?? ''} ${element.textContent ?? ''}`.trim())
          .filter(Boolean),
      ),
    );
  }
  if (act.action === 'profile') return JSON.stringify(await profile(page, act.seconds));
  if (act.action === 'workbench') return JSON.stringify(await page.evaluate(readWorkbench));
  if (act.action === 'notificationButton') {
    const notice = page.locator('.notifications-center .notification-list-item', { hasText: act.text });
    await notice.locator('.monaco-button', { hasText: act.label }).first().click();
    return;
  }
  if (act.action === 'key') return void (await page.keyboard.press(act.key));
  if (act.action === 'frameText') return frameShowing(page, act);
  const frame = await panelFrame(page);
  switch (act.action) {
    case 'focus': {
      const panel = await frame.evaluate(() => (document.hasFocus() ? (document.activeElement?.id ?? null) : null));
      const quickInput = await page.evaluate(() => [...document.querySelectorAll('.quick-input-widget')].some(widget => widget.checkVisibility()));
      return JSON.stringify({ panel, quickInput });
    }
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
      if ((await frame.locator(`#more-menu #${act.id}`).count()) && (await frame.locator('#more-menu').isHidden())) await frame.locator('#more').click();
      await frame.locator(`#${act.id}`).click();
      return;
    }
    case 'row':
      await frame.locator('#activity-list li.call', { hasText: act.text }).last().click();
      return;
    case 'cardButton':
      await frame.locator('#tab-activity').click();
      await frame.locator('#activity-list .card button', { hasText: act.label }).last().click();
      return;
    case 'select':
      await frame.locator(`#${act.id}`).selectOption(act.value);
      return;
    case 'request':
      // The row shows the file over its folder (as DevTools does); its tooltip holds the whole URL.
      await frame
        .locator(`#network-list li.request[title*=${JSON.stringify(act.text)}]`)
        .last()
        .click();
      return;
    case 'measure':
      if (act.task === 'detail') return JSON.stringify(await measureDetails(frame, act));
      return JSON.stringify(await frame.evaluate(measureInPanel, act));
  }
}

/**
 * Runs in the workbench's page (serialized by Playwright): see the `workbench` act. Notices are read from the
 * notification center (the test opens it with `notifications.showList`): in smoke-test-driver mode VS Code shows no toasts.
 */
function readWorkbench(): { notices: { message: string; buttons: string[] }[]; statusBar: string | null; settingsQuery: string | null } {
  const notices = [...document.querySelectorAll('.notifications-center .notification-list-item')].map(item => ({
    message: item.querySelector('.notification-list-item-message')?.textContent?.trim() ?? '',
    buttons: [...item.querySelectorAll('.notification-list-item-buttons-container .monaco-button')].map(b => b.textContent?.trim() ?? ''),
  }));
  const item = [...document.querySelectorAll('.statusbar-item')].find(e =>
    (e.querySelector('[aria-label]') ?? e).getAttribute('aria-label')?.startsWith('Playwright Bridge browser:'),
  );
  const search = document.querySelector('.settings-editor .settings-header .search-container .view-lines');
  return { notices, statusBar: item?.textContent?.trim() ?? null, settingsQuery: search ? (search.textContent ?? '').replace(/\u00a0/g, ' ').trim() : null };
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
    // Requests the panel listed (its test bundle counts them as they arrive, drawn in sight or not).
    const listed = () => (window as unknown as { panelRequestsListed?: number }).panelRequestsListed ?? 0;
    const listedBefore = listed();
    // Tasks of this webview's own page that held its thread over 50 ms: what the panel itself cost the frames.
    const longTasks: { ms: number; whose: string }[] = [];
    const tasks = new PerformanceObserver(entries => {
      // `name` says whose task it was: 'self' (the panel), or the workbench around it ('same-origin-ancestor'), …
      for (const entry of entries.getEntries()) longTasks.push({ ms: entry.duration, whose: entry.name });
    });
    tasks.observe({ type: 'longtask' });
    const intervals: number[] = [];
    const started = performance.now();
    let last = await frame();
    const end = last + act.seconds * 1000;
    while (last < end) {
      const now = await frame();
      intervals.push(now - last);
      last = now;
    }
    tasks.disconnect();
    // The rows' own pace: from the first that came in the window to the last (not the window, which starts
    // before the page sends anything and may end after it stopped).
    const times = ((window as unknown as { panelRequestsListedAt?: number[] }).panelRequestsListedAt ?? []).filter(at => at >= started);
    const rowsSpanMs = times.length > 1 ? times[times.length - 1] - times[0] : 0;
    return { intervals, rows: listed() - listedBefore, rowsSpanMs, longTasks };
  }
  if (act.task === 'sizes') {
    return [...document.querySelectorAll<HTMLElement>('#network-list li.request')].map(row => ({
      url: row.title.split('\n')[0],
      size: [...row.querySelectorAll('.size > span')].map(part => part.textContent ?? ''),
    }));
  }
  if (act.task === 'pictureColors') {
    const holder = window as unknown as { pictureSamples?: { at: number; rgb: number[] }[]; pictureWatch?: MutationObserver };
    if (act.phase === 'read') return holder.pictureSamples ?? [];
    const picture = document.getElementById('frame') as HTMLImageElement;
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    const samples: { at: number; rgb: number[] }[] = (holder.pictureSamples = []);
    holder.pictureWatch?.disconnect();
    holder.pictureWatch = new MutationObserver(() => {
      const shownAt = Date.now();
      void picture.decode().then(
        () => {
          const { naturalWidth: w, naturalHeight: h } = picture;
          // The middle fifth of the picture, averaged into one pixel.
          context.drawImage(picture, w * 0.4, h * 0.4, w * 0.2, h * 0.2, 0, 0, 1, 1);
          samples.push({ at: shownAt, rgb: [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)] });
        },
        () => undefined,
      );
    });
    holder.pictureWatch.observe(picture, { attributes: true, attributeFilter: ['src'] });
    return [];
  }
  if (act.task === 'resize') {
    const picture = document.getElementById('frame') as HTMLImageElement;
    const picker = document.getElementById('size') as HTMLSelectElement;
    const times: number[] = [];
    for (const preset of act.presets) {
      const [width, height] = preset.split('x').map(Number);
      await painted();
      const start = performance.now();
      picker.value = preset;
      picker.dispatchEvent(new Event('change', { bubbles: true }));
      // Drawn at the new size: the frame says it shows the page at that size, and its pixels have that shape.
      while (picture.dataset.pageSize !== preset || Math.abs(picture.naturalWidth / picture.naturalHeight / (width / height) - 1) > 0.03) {
        if (performance.now() - start > 30000) throw new Error(`no picture at ${preset} within 30 s (it shows ${picture.dataset.pageSize})`);
        await frame();
      }
      await painted();
      times.push(performance.now() - start);
    }
    return times;
  }
  throw new Error(`no such measure: ${act.task}`);
}

/**
 * The `detail` measure: each request whose URL holds `text` opened once, newest first, found by the filter as a
 * person finds one among 2,000. With `restMs`, the pointer comes onto the row and rests there that long before
 * the click, as a person's does (the panel reads the body ahead while it rests); without, the click comes at once. Each time is from the click to the body drawn, in the webview's own clock.
 */
async function measureDetails(frame: Frame, act: Extract<PanelAct, { task: 'detail' }>): Promise<number[]> {
  const filterBy = (text: string) =>
    frame.evaluate(async value => {
      const filter = document.getElementById('network-filter') as HTMLInputElement;
      filter.value = value;
      filter.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise<void>(resolve => requestAnimationFrame(() => setTimeout(resolve, 0)));
    }, text);
  await filterBy(act.text);
  const opened: string[] = [];
  const times: number[] = [];
  for (let i = 0; i < act.times; i++) {
    const { id, took } = await frame.evaluate(
      async ({ text, opened, restMs }) => {
        const frame = () => new Promise<number>(resolve => requestAnimationFrame(resolve));
        const painted = () => new Promise<void>(resolve => requestAnimationFrame(() => setTimeout(resolve, 0)));
        const rows = [...document.querySelectorAll<HTMLElement>('#network-list li.request')].filter(row => row.title.includes(text));
        const row = rows.reverse().find(candidate => !opened.includes(candidate.dataset.requestId!)) ?? rows[0];
        if (!row) throw new Error(`no request row holds ${text}`);
        if (restMs) {
          // The pointer moves onto the row (the event the browser sends as it moves there) and rests there.
          row.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, pointerType: 'mouse' }));
          await new Promise(resolve => setTimeout(resolve, restMs));
        }
        await painted();
        const start = performance.now();
        row.click();
        // Drawn: the response body's text is in the pane (a GET has no request body of its own).
        while (!document.querySelector('#request-body .body-text pre')) {
          if (performance.now() - start > 30000) throw new Error("the request's body did not show within 30 s");
          await frame();
        }
        await painted();
        const took = performance.now() - start;
        (document.getElementById('request-close') as HTMLButtonElement).click();
        return { id: row.dataset.requestId!, took };
      },
      { text: act.text, opened, restMs: act.restMs },
    );
    opened.push(id);
    times.push(took);
  }
  await filterBy('');
  return times;
}

/** The top functions by self time over `seconds`, from Chromium's sampling profiler on the workbench's page. */
async function profile(page: Page, seconds: number): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  await new Promise(resolve => setTimeout(resolve, seconds * 1000));
  const { profile: samples } = await cdp.send('Profiler.stop');
  await cdp.detach();
  const nodes = new Map(samples.nodes.map(node => [node.id, node]));
  const self = new Map<string, number>();
  (samples.samples ?? []).forEach((id, i) => {
    const frame = nodes.get(id)!.callFrame;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (samples.timeDeltas?.[i] ?? 0) / 1000);
  });
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 20)
    .map(([key, ms]) => `${Math.round(ms)} ms ${key}`);
}
