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

/**
 * Set by the child in a result's `_meta` when the browser was lost before that call: why, in words.
 * The supervisor turns it into the note the model reads (one layer writes the note, not two).
 */
export const BROWSER_LOST_META = 'playwrightBridge/browserLost';

/** Put before the first result after the browser was lost, so the model knows to start over. */
export function browserLostNotice(reason: string): string {
  return `Note: ${reason} This call ran in a fresh browser: earlier pages, tabs, form input and login state are gone. Navigate again before acting on earlier element references.`;
}
