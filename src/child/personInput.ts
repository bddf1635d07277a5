/**
 * The person's mouse and keyboard from the panel, applied to the page the agent drives. Positions
 * come as fractions of the viewport (the panel shows a scaled frame), keys by their DOM names,
 * which are Playwright's too.
 */
import type { Page } from 'playwright';
import type { InputEvent } from '../protocol/childMessages';

export async function applyInput(page: Page, event: InputEvent, fallbackViewport: { width: number; height: number }): Promise<void> {
  const viewport = page.viewportSize() ?? fallbackViewport;
  const at = (x: number, y: number) => ({ x: x * viewport.width, y: y * viewport.height });
  switch (event.kind) {
    case 'mouse': {
      const { x, y } = at(event.x, event.y);
      await page.mouse.move(x, y);
      if (event.action === 'down') await page.mouse.down({ button: event.button, clickCount: event.clickCount });
      if (event.action === 'up') await page.mouse.up({ button: event.button, clickCount: event.clickCount });
      return;
    }
    case 'wheel': {
      const { x, y } = at(event.x, event.y);
      await page.mouse.move(x, y);
      await page.mouse.wheel(event.deltaX, event.deltaY);
      return;
    }
    case 'key':
      // Modifiers arrive as their own key events; a printable key types its character on down.
      if (event.action === 'down') await page.keyboard.down(event.key);
      else await page.keyboard.up(event.key);
      return;
    case 'text':
      await page.keyboard.insertText(event.text);
      return;
  }
}
