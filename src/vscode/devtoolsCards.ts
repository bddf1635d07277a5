/**
 * A DevTools card's buttons in the panel's Activity: Open trace opens the trace file the card's call wrote (in
 * the output folder, found by the call's id in the host's own copy of the card: the webview never names a
 * path), Add to Chat puts the card's findings on the chat input, in the words the model read, and Learn more
 * or Rule docs opens a link that card holds.
 */
import * as fs from 'fs';
import * as path from 'path';
import type * as vscodeTypes from 'vscode';
import type { DevtoolsCard } from '../protocol/devtoolsFacts';
import { isInside } from '../core/tools/fileTools';
import { auditText, traceText } from '../core/pipeline/tools/devtoolsWords';
import { attachToChat } from './addToChat';
import { isDocsLink } from '../protocol/devtoolsAdvice';

type VSCode = typeof vscodeTypes;

/** The trace file of a card, if it is still in the output folder. */
export function traceFileOf(card: DevtoolsCard | undefined, outputDir: string): string | undefined {
  if (card?.kind !== 'trace' || !card.trace.file) return undefined;
  const file = path.resolve(outputDir, card.trace.file);
  return isInside(outputDir, file) && fs.existsSync(file) ? file : undefined;
}

/** The documentation links a card shows: its insights' pages and its rules' (https only). */
export function cardDocsLinks(card: DevtoolsCard | undefined): string[] {
  if (!card) return [];
  const links = card.kind === 'trace' ? card.trace.insights.map(insight => insight.docs) : card.audit.violations.map(violation => violation.helpUrl);
  return links.filter(isDocsLink);
}

/**
 * Opens a card's documentation link in the person's browser: only a link the host's own copy of that card
 * holds (a message from the webview names a URL, it never chooses one).
 */
export async function openCardDocs(vscode: VSCode, card: DevtoolsCard | undefined, url: string): Promise<boolean> {
  if (!cardDocsLinks(card).includes(url)) {
    void vscode.window.showWarningMessage("That link is not one of the card's documentation links (or the card is no longer kept): nothing was opened.");
    return false;
  }
  return vscode.env.openExternal(vscode.Uri.parse(url));
}

export async function runCardAction(vscode: VSCode, card: DevtoolsCard | undefined, action: 'openTrace' | 'addToChat', outputDir: string): Promise<void> {
  if (!card) {
    void vscode.window.showWarningMessage('That card is no longer kept: run the trace or audit again.');
    return;
  }
  if (action === 'addToChat') {
    const text = card.kind === 'trace' ? traceText(card.trace) : auditText(card.audit);
    await attachToChat(
      vscode,
      outputDir,
      card.kind === 'trace' ? 'performance-trace' : 'accessibility-audit',
      `# ${card.kind === 'trace' ? 'Performance trace' : 'Accessibility audit'}\n\n${text}\n`,
    );
    return;
  }
  const file = traceFileOf(card, outputDir);
  if (!file) {
    void vscode.window.showWarningMessage('The trace file is gone from the output folder (its size budget may have removed it): record the trace again.');
    return;
  }
  const uri = vscode.Uri.file(file);
  await vscode.commands.executeCommand('vscode.open', uri, { preview: true });
  // Not awaited: the notice stays until the person answers it, and the file is already open.
  void vscode.window
    .showInformationMessage(
      `The trace is ${path.basename(file)}. Chrome DevTools opens it: Performance panel, Load profile (or drop the file there).`,
      'Reveal in File Explorer',
      'Copy Path',
    )
    .then(async reveal => {
      if (reveal === 'Reveal in File Explorer') await vscode.commands.executeCommand('revealFileInOS', uri);
      if (reveal === 'Copy Path') await vscode.env.clipboard.writeText(file);
    });
}
