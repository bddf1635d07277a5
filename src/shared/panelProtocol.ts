/**
 * The one message protocol between the extension and the browser panel's webview. Both import
 * this module; nothing else crosses the boundary.
 */
import type { ConsoleEntry, ConsoleLevel, NetworkEntry, TabInfo } from '../core/observation';

export type { ConsoleLevel, TabInfo };

export type BridgeStateName = 'idle' | 'starting' | 'ready' | 'restarting' | 'failed' | 'disposed';

export interface PanelState {
  bridge: BridgeStateName;
  /** Why: a failure's message, or what happened last. */
  detail?: string;
  browser: string;
  browserState?: string;
  tabs: TabInfo[];
  paused: boolean;
  /** Set when frames come from screenshots after changes instead of a stream. */
  frameSource?: 'screencast' | 'screenshot';
}

/** A console message as the panel lists it (what the child saw, numbered by the store). */
export type ConsoleRow = Omit<ConsoleEntry, 'pageId'> & { seq: number };

/** A request as the panel lists it; updated in place when it finishes. */
export type NetworkRow = Omit<NetworkEntry, 'pageId'> & { seq: number };

export interface ActivityRow {
  seq: number;
  id: number;
  /** What the call does, with its key argument ("Opening http://…"). */
  title: string;
  tool: string;
  door: 'tool' | 'mcp' | 'panel';
  startedAt: number;
  durationMs?: number;
  outcome?: 'ok' | 'error' | 'cancelled';
  error?: string;
  /** A small JPEG of the image the result held, as a data: URL. */
  thumbnail?: string;
}

/** A line between the entries of two browsers, after a restart. */
export interface MarkerRow {
  seq: number;
  marker: string;
  time: number;
}

export type HostToPanel =
  | { type: 'snapshot'; state: PanelState; console: (ConsoleRow | MarkerRow)[]; network: (NetworkRow | MarkerRow)[]; activity: (ActivityRow | MarkerRow)[] }
  | { type: 'state'; state: PanelState }
  | { type: 'console'; rows: (ConsoleRow | MarkerRow)[]; dropBefore: number }
  | { type: 'network'; rows: (NetworkRow | MarkerRow)[]; dropBefore: number }
  | { type: 'activity'; rows: (ActivityRow | MarkerRow)[]; dropBefore: number }
  | { type: 'frame'; seq: number; data: string; width: number; height: number; producedAt: number }
  | { type: 'describe' };

export type PanelCommand = 'restart' | 'start' | 'togglePause' | 'saveScreenshot';

/** What the webview reports of its own DOM when asked (`describe`): what a person would see. */
export interface PanelReport {
  frameDrawn: boolean;
  frameSize?: { width: number; height: number };
  consoleTexts: string[];
  networkUrls: string[];
  activityTitles: string[];
  header: string;
  /** How the panel is laid out, as a person would judge it readable. */
  layout: PanelLayout;
}

export interface PanelLayout {
  /** The panel's width in CSS pixels. */
  width: number;
  /** Controls in the toolbar and the visible filter row that are cut off or stick out of the panel. */
  cutControls: string[];
  /** Width of the visible filter box, in CSS pixels. */
  filterWidth: number;
  /** The console level toggles sit on one line (none wraps alone). */
  levelsOnOneLine: boolean;
  /** Empty space beside or above the drawn frame in its box, in CSS pixels (0 when it fills it). */
  frameBands: number;
}

export type PanelToHost =
  | { type: 'ready' }
  | { type: 'frameDrawn'; seq: number }
  | { type: 'resize'; width: number; height: number; devicePixelRatio: number }
  | { type: 'command'; command: PanelCommand }
  | { type: 'report'; report: PanelReport };

export function isMarker(row: object): row is MarkerRow {
  return 'marker' in row;
}

/** Accepts only well-formed messages from the webview (it is a separate, less trusted context). */
export function parsePanelMessage(value: unknown): PanelToHost | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const m = value as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'frameDrawn':
      return typeof m.seq === 'number' ? { type: 'frameDrawn', seq: m.seq } : undefined;
    case 'resize':
      return [m.width, m.height, m.devicePixelRatio].every(v => typeof v === 'number' && Number.isFinite(v) && (v as number) >= 0)
        ? { type: 'resize', width: m.width as number, height: m.height as number, devicePixelRatio: m.devicePixelRatio as number }
        : undefined;
    case 'command':
      return ['restart', 'start', 'togglePause', 'saveScreenshot'].includes(m.command as string) ? { type: 'command', command: m.command as PanelCommand } : undefined;
    case 'report':
      return typeof m.report === 'object' && m.report !== null ? { type: 'report', report: m.report as PanelReport } : undefined;
    default:
      return undefined;
  }
}
