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
  | { action: 'chatAttachments' };

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
    case 'button':
      await frame.locator(`#${act.id}`).click();
      return;
    case 'row':
      await frame.locator('#activity-list li.call', { hasText: act.text }).last().click();
      return;
  }
}
