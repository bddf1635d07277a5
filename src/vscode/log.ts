import type * as vscodeTypes from 'vscode';

/** The log channel; PLAYWRIGHT_BRIDGE_ECHO_LOG=1 also writes it to the extension host's console (for test runs). */
export function createLog(vscode: typeof vscodeTypes): vscodeTypes.LogOutputChannel {
  const channel = vscode.window.createOutputChannel('Playwright Bridge', { log: true });
  if (process.env.PLAYWRIGHT_BRIDGE_ECHO_LOG !== '1') return channel;
  for (const level of ['info', 'warn', 'error'] as const) {
    const original = channel[level].bind(channel);
    channel[level] = (message: string | Error, ...args: unknown[]) => {
      console.log(`[bridge ${level}] ${message instanceof Error ? message.message : message}`);
      original(message as string, ...args);
    };
  }
  return channel;
}
