/**
 * The tools that capture the page (a screenshot, a PDF): they change nothing, so the live stream stays
 * stopped for all of their run (its frames would only slow the capture). Other calls stop it for at most
 * STREAM_DURING_CALL_AFTER_MS, so long navigations and waits still show on the panel.
 */
const CAPTURE_TOOLS = new Set(['browser_take_screenshot', 'browser_pdf_save']);
const STREAM_DURING_CALL_AFTER_MS = 300;

/** How long the stream stays stopped while this tool runs. */
export function streamPauseMs(tool: string): number {
  return CAPTURE_TOOLS.has(tool) ? Infinity : STREAM_DURING_CALL_AFTER_MS;
}
