import { toolRecord } from '../../core/tools/toolRegistry';

/**
 * A tool that captures the page (a screenshot, a PDF; its `capture` trait) changes nothing, so the live
 * stream stays stopped for all of its run (its frames would only slow the capture). Other calls stop it for
 * at most STREAM_DURING_CALL_AFTER_MS, so long navigations and waits still show on the panel.
 */
const STREAM_DURING_CALL_AFTER_MS = 300;

/** How long the stream stays stopped while this tool runs. */
export function streamPauseMs(tool: string): number {
  return toolRecord(tool)?.capture ? Infinity : STREAM_DURING_CALL_AFTER_MS;
}
