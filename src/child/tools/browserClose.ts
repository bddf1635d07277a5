/**
 * browser_close: upstream closes its browser and never asks for another, so the child drops the whole
 * inner session after a close that worked; the next call opens a fresh one.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export function closedTheBrowser(tool: string, result: CallToolResult): boolean {
  return tool === 'browser_close' && !result.isError;
}
