/**
 * What the child says beyond plain MCP. Imported by the child and by the supervisor, so both
 * sides agree on names and shapes.
 */

/** Sent by the child whenever its browser changes state. */
export const BROWSER_STATE_NOTIFICATION = 'notifications/playwright_bridge/browser_state';

export type BrowserState = 'launching' | 'ready' | 'closed' | 'lost' | 'failed';

export interface BrowserStateParams {
  state: BrowserState;
  /** For `failed` and `lost`: what happened and how to fix it, ready to show a person. */
  message?: string;
}

/** Prefixed to the first result after the browser was lost, so the model knows to start over. */
export function browserLostNotice(reason: string): string {
  return `Note: ${reason} This call ran in a fresh browser: earlier pages, tabs, form input and login state are gone. Navigate again before acting on earlier element references.`;
}
