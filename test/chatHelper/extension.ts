/**
 * Test-only helper extension: a scripted language model with tool calling. It plays the turn whose
 * prompt it receives, one tool call per request, and records every request (tools offered, results).
 */
import * as vscode from 'vscode';
import { DEMO_SCENARIO, fill, fillArgs, ScenarioTurn, turnFor } from './scenario';

export interface RecordedRequest {
  offeredTools: string[];
  /** The tool results in this request, in order: their text and the MIME types of their data parts. */
  results: { text: string; mimeTypes: string[] }[];
  reply: string;
}

let scenario: ScenarioTurn[] = [];
let base = '';
/** Which tools to call: ours (language-model tools) or the MCP server's (mcp_…). */
let door: 'tool' | 'mcp' = 'tool';
const record: RecordedRequest[] = [];

function textOf(part: unknown): { text: string; mimeTypes: string[] } {
  const content = (part as { content?: unknown[] }).content ?? [];
  const texts: string[] = [];
  const mimeTypes: string[] = [];
  for (const item of content) {
    const p = item as { value?: unknown; mimeType?: string; data?: unknown };
    if (item instanceof vscode.LanguageModelDataPart || (p.mimeType && p.data)) mimeTypes.push(p.mimeType!);
    else if (typeof p.value === 'string') texts.push(p.value);
    else mimeTypes.push(`(unknown part: ${Object.keys(item as object).join(',')})`);
  }
  return { text: texts.join('\n'), mimeTypes };
}

const provider: vscode.LanguageModelChatProvider = {
  provideLanguageModelChatInformation: () => [
    {
      id: 'scripted',
      name: 'Scripted',
      family: 'scripted',
      version: '1',
      maxInputTokens: 200000,
      maxOutputTokens: 8000,
      capabilities: { toolCalling: true, imageInput: true },
    },
  ],
  async provideLanguageModelChatResponse(_model, messages, options, progress) {
    // The turn is the one the person's last message asks for (a message of text, not of tool results); the results since then are this turn's.
    let promptIndex = -1;
    messages.forEach((message, index) => {
      const isPrompt =
        message.role === vscode.LanguageModelChatMessageRole.User &&
        message.content.some(part => part instanceof vscode.LanguageModelTextPart && part.value.trim()) &&
        !message.content.some(part => part instanceof vscode.LanguageModelToolResultPart);
      if (isPrompt) promptIndex = index;
    });
    const results = messages
      .slice(promptIndex + 1)
      .flatMap(message => message.content.filter(part => part instanceof vscode.LanguageModelToolResultPart).map(textOf));
    const promptText = promptIndex >= 0 ? messages[promptIndex].content.map(p => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('') : '';
    const turn = turnFor(promptText, scenario);
    const offered = (options.tools ?? []).map(t => t.name);
    const entry: RecordedRequest = { offeredTools: offered, results: [...results], reply: '' };
    record.push(entry);
    if (!turn) {
      entry.reply = `I am a scripted model with no script for that. I can answer: ${scenario.map(t => `"${t.prompt}"`).join(', ')}.`;
      progress.report(new vscode.LanguageModelTextPart(entry.reply));
      return;
    }
    const context = { base, results: results.map(r => r.text) };
    const step = turn.steps[results.length];
    // In the demo each step waits a little, so a person can follow it.
    if (demoDelayMs) await new Promise(resolve => setTimeout(resolve, demoDelayMs));
    if (step) {
      const name = offered.find(n => (door === 'tool' ? n === step.tool : n.startsWith('mcp_') && n.endsWith(`_${step.tool}`)));
      if (!name) {
        entry.reply = `The tool ${step.tool} was not offered (door ${door}).`;
        progress.report(new vscode.LanguageModelTextPart(entry.reply));
        return;
      }
      entry.reply = `call ${name}`;
      progress.report(new vscode.LanguageModelToolCallPart(`call-${record.length}`, name, fillArgs(step.args, context)));
      return;
    }
    entry.reply = fill(turn.answer, context);
    progress.report(new vscode.LanguageModelTextPart(entry.reply));
  },
  async provideTokenCount(_model, text) {
    return Math.ceil((typeof text === 'string' ? text.length : JSON.stringify(text).length) / 4);
  },
};

const demoDelayMs = Number(process.env.PLAYWRIGHT_BRIDGE_DEMO_STEP_MS ?? 0);

/**
 * `npm start -- --demo`: in the person's own window, enable chat, open the browser panel and play
 * the scenario slowly enough to watch, accepting confirmations.
 */
async function playDemo(siteUrl: string): Promise<void> {
  scenario = DEMO_SCENARIO;
  base = siteUrl;
  door = 'tool';
  await vscode.commands.executeCommand('workbench.action.chat.manage');
  for (let i = 0; i < 240 && !vscode.extensions.getExtension('GitHub.copilot-chat')?.isActive; i++) await new Promise(resolve => setTimeout(resolve, 500));
  await vscode.commands.executeCommand('workbench.action.closeModalEditor');
  // A clean layout: no Welcome tab or other editors beside the panel, no side bar or bottom panel squeezing it.
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  await vscode.commands.executeCommand('workbench.action.closePanel');
  await vscode.commands.executeCommand('playwrightBridge.openPanelInEditor');
  // A moment to look at the empty panel before chat starts.
  await new Promise(resolve => setTimeout(resolve, 3000));
  for (const turn of DEMO_SCENARIO) {
    const before = record.length;
    void vscode.commands.executeCommand('workbench.action.chat.open', {
      mode: 'agent',
      modelSelector: { vendor: 'pwb-scripted', id: 'scripted' },
      query: turn.prompt,
      blockOnResponse: true,
    });
    for (let i = 0; i < 600; i++) {
      const last = record.slice(before).at(-1);
      if (last && !last.reply.startsWith('call ')) break;
      await vscode.commands.executeCommand('workbench.action.chat.acceptTool').then(undefined, () => undefined);
      await new Promise(resolve => setTimeout(resolve, 300));
    }
    // Time to read the answer before the next prompt.
    await new Promise(resolve => setTimeout(resolve, 6000));
  }
}

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider('pwb-scripted', provider),
    vscode.commands.registerCommand('pwbChatHelper.configure', (options: { scenario: ScenarioTurn[]; base: string; door: 'tool' | 'mcp' }) => {
      scenario = options.scenario;
      base = options.base;
      door = options.door;
      record.length = 0;
    }),
    vscode.commands.registerCommand('pwbChatHelper.record', () => record),
  );
  const demoSite = process.env.PLAYWRIGHT_BRIDGE_DEMO_SITE;
  if (demoSite) void playDemo(demoSite);
}
