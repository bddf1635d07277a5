import type * as vscodeTypes from 'vscode';
import { LogGate } from '../core/egress/logLine';

/**
 * The log channel. Every line passes the log's egress gate (core/egress/logLine.ts: no raw control character,
 * bounded length). PLAYWRIGHT_BRIDGE_ECHO_LOG=1 also writes it to the extension host's console (for test runs).
 */
export function createLog(vscode: typeof vscodeTypes): vscodeTypes.LogOutputChannel {
  const channel = vscode.window.createOutputChannel('Playwright Bridge', { log: true });
  const gate = new LogGate(() => undefined);
  const echo = process.env.PLAYWRIGHT_BRIDGE_ECHO_LOG === '1';
  for (const level of ['trace', 'debug', 'info', 'warn', 'error'] as const) {
    const original = channel[level].bind(channel) as (message: string | Error, ...args: unknown[]) => void;
    channel[level] = (message: string | Error, ...args: unknown[]) => {
      const shown = gate.shown(message instanceof Error ? message.message : message);
      if (echo && level !== 'trace' && level !== 'debug') console.log(`[bridge ${level}] ${shown}`);
      original(shown, ...args);
    };
  }
  return channel;
}
