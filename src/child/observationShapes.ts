/**
 * How the child shapes what Playwright reports into the protocol's terms: console levels, and the
 * size of live frames for the panel's box.
 */
import type { ConsoleLevel, LiveViewParams } from '../protocol/childMessages';

export function consoleLevelOf(type: string): ConsoleLevel {
  switch (type) {
    case 'error':
    case 'assert':
      return 'error';
    case 'warning':
    case 'warn':
      return 'warning';
    case 'debug':
    case 'trace':
      return 'debug';
    default:
      return 'info';
  }
}

/** The frame size for a viewport shown in a box: aspect kept, never larger than the page itself. */
export function fitFrameSize(
  viewport: { width: number; height: number },
  box: Pick<LiveViewParams, 'maxWidth' | 'maxHeight'>,
): { width: number; height: number } {
  const scale = Math.min(1, box.maxWidth / viewport.width, box.maxHeight / viewport.height);
  return { width: Math.max(2, Math.round(viewport.width * scale)), height: Math.max(2, Math.round(viewport.height * scale)) };
}
