/**
 * Add to Chat: what the person picked in the panel (an element, a dragged region's picture, or the
 * page's console errors) written as a small Markdown or PNG file in the bridge's output folder and attached to the chat input,
 * ready for their next prompt. Nothing is sent until they send it.
 */
import * as fs from 'fs';
import * as path from 'path';
import type * as vscodeTypes from 'vscode';
import type { PickedElement } from '../protocol/childMessages';
import type { ConsoleRow } from '../protocol/panelMessages';

type VSCode = typeof vscodeTypes;

export function describeElement(element: PickedElement): string {
  const fence = '`'.repeat(Math.max(3, ...(element.html.match(/`+/g) ?? []).map(run => run.length + 1)));
  return [
    '# An element picked in the browser panel',
    '',
    `- Page: ${element.url}`,
    `- Role: ${element.role}`,
    `- Name: ${element.name ? `"${element.name}"` : '(none)'}`,
    element.ref
      ? `- Ref: ${element.ref} (the target for browser_click, browser_type and the other element tools)`
      : '- Ref: none matched in the page snapshot; take a snapshot to find it',
    '',
    `${fence}html`,
    element.html,
    fence,
    '',
  ].join('\n');
}

export function describeConsoleErrors(rows: ConsoleRow[], pageUrl: string | undefined): string {
  const errors = rows.filter(row => row.level === 'error');
  return [
    `# Console errors of the page${pageUrl ? ` ${pageUrl}` : ''}`,
    '',
    ...(errors.length ? errors.map(row => `- ${row.text.replace(/\n/g, ' ')}${row.location ? ` (${row.location})` : ''}`) : ['(none)']),
    '',
  ].join('\n');
}

/** Writes `<output folder>/chat/<kind>-<time>.<extension>` (Markdown, or a region's PNG) and puts that file on the chat input. */
export async function attachToChat(vscode: VSCode, outputDir: string, kind: string, content: string | Buffer, extension = 'md'): Promise<string> {
  const folder = path.join(outputDir, 'chat');
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `${kind}-${new Date().toISOString().replace(/[:.]/g, '-')}.${extension}`);
  fs.writeFileSync(file, content);
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: '', isPartialQuery: true, attachFiles: [vscode.Uri.file(file)] });
  return file;
}
