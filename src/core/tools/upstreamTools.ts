/**
 * The upstream tools the bridge calls itself, by name: the panel's address bar, back button, tab strip and size
 * picker, Start Browser, the picker's and the tab check's reading of the page. Each name is typed by the registry
 * (a misspelt one does not compile), and these are the only places outside the tools folders reach them by name.
 */
import type { ToolName } from './toolRegistry';

export const NAVIGATE = 'browser_navigate' as const satisfies ToolName;
export const NAVIGATE_BACK = 'browser_navigate_back' as const satisfies ToolName;
export const TABS = 'browser_tabs' as const satisfies ToolName;
export const RESIZE = 'browser_resize' as const satisfies ToolName;
export const SNAPSHOT = 'browser_snapshot' as const satisfies ToolName;
