/**
 * What the child reports about its browser for the live panel, as MCP notifications beside the
 * tool traffic. Imported by the child (sender) and the extension (receiver).
 */

export const OBSERVATION_NOTIFICATION = 'notifications/playwright_bridge/observation';
/** Sent by the extension to the child: start, resize or stop the live view. */
export const LIVE_VIEW_NOTIFICATION = 'notifications/playwright_bridge/live_view';
/** A request from the extension: a PNG of the current page (for "save screenshot"). */
export const SCREENSHOT_REQUEST = 'playwright_bridge/screenshot';

export type ConsoleLevel = 'error' | 'warning' | 'info' | 'debug';

export interface TabInfo {
  id: string;
  url: string;
  title: string;
  current: boolean;
}

export interface ConsoleEntry {
  level: ConsoleLevel;
  text: string;
  /** url:line:column where the message came from, when known. */
  location?: string;
  pageId: string;
  time: number;
}

export interface NetworkEntry {
  id: string;
  method: string;
  url: string;
  resourceType: string;
  /** HTTP status; 0 while pending or when the request failed before a response. */
  status: number;
  /** The failure (net::ERR_...) when it failed. */
  failure?: string;
  durationMs?: number;
  sizeBytes?: number;
  pageId: string;
  time: number;
}

export interface FrameEvent {
  pageId: string;
  /** JPEG, base64. */
  data: string;
  width: number;
  height: number;
  /** When the browser produced it (ms since epoch), for latency figures. */
  timestamp: number;
  /**
   * 'screencast' frames stream; 'screenshot' frames are the fallback after a state-changing call;
   * a 'still' is taken when a stream starts on a page that is not changing (Chromium sends frames
   * only for new paints, so an already painted static page would show nothing).
   */
  source: 'screencast' | 'screenshot' | 'still';
}

export type ObservationEvent =
  | { kind: 'tabs'; tabs: TabInfo[] }
  | { kind: 'console'; entry: ConsoleEntry }
  | { kind: 'network'; entry: NetworkEntry }
  | { kind: 'frame'; frame: FrameEvent };

export interface LiveViewParams {
  enabled: boolean;
  /** Largest frame wanted, in device pixels (the panel's size times its pixel ratio). */
  maxWidth: number;
  maxHeight: number;
  quality?: number;
}

export function consoleLevelOf(type: string): ConsoleLevel {
  switch (type) {
    case 'error': case 'assert': return 'error';
    case 'warning': case 'warn': return 'warning';
    case 'debug': case 'trace': return 'debug';
    default: return 'info';
  }
}

/** The frame size for a viewport shown in a box: aspect kept, never larger than the page itself. */
export function fitFrameSize(viewport: { width: number; height: number }, box: { maxWidth: number; maxHeight: number }): { width: number; height: number } {
  const scale = Math.min(1, box.maxWidth / viewport.width, box.maxHeight / viewport.height);
  return { width: Math.max(2, Math.round(viewport.width * scale)), height: Math.max(2, Math.round(viewport.height * scale)) };
}

/** The longest console text, URL and title an entry carries to the extension; the rest is cut, saying how much. */
export const ENTRY_LIMITS = { text: 8000, url: 2000, title: 500 };

/** A text cut to `max` characters, ending with how many were cut. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters cut)`;
}
