/**
 * What one of upstream's answers says, read from its Markdown sections: the Playwright code it ran, the
 * page's address after the call, the open tabs, a dialog or file chooser left open, and its snapshot
 * (inline, or the file upstream wrote it to). Upstream's headings are its interface; an answer without
 * one of them simply lacks that part.
 */

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { resultText } from '../results/resultText';
import { tabListOf, type ListedTab } from '../tools/browserTabs';

/** A tab as the answer lists it (core/tools/browserTabs.ts reads the list). */
export type AnsweredTab = ListedTab;

export interface AnswerSections {
  /** The lines of the "### Ran Playwright code" block, as upstream wrote them. */
  code: string[];
  pageUrl?: string;
  /** From "### Open tabs", or a browser_tabs "### Result" list. */
  tabs?: AnsweredTab[];
  /** A dialog or file chooser the call left open ("### Modal state"). */
  modal?: 'dialog' | 'fileChooser';
  /** The snapshot's YAML when the answer carries it inline. */
  snapshot?: string;
  /** The file upstream wrote the snapshot to, when it linked it instead. */
  snapshotFile?: string;
}

/**
 * The answer's text split by its "### " headings: heading -> body (the first of each). The code block is
 * taken only where upstream puts it, before any section that shows the page (tabs, page, modal state,
 * snapshot, events): a heading the page wrote into one of those cannot pass for it.
 */
function sectionsOf(text: string): Map<string, string> {
  const sections = new Map<string, string>();
  const parts = text.split(/^### /m);
  let pageShown = false;
  for (const part of parts.slice(1)) {
    const newline = part.indexOf('\n');
    const heading = (newline < 0 ? part : part.slice(0, newline)).trim();
    const body = newline < 0 ? '' : part.slice(newline + 1);
    if (heading === 'Ran Playwright code' && pageShown) continue;
    if (heading !== 'Result' && heading !== 'Error' && heading !== 'Ran Playwright code') pageShown = true;
    if (!sections.has(heading)) sections.set(heading, body);
  }
  return sections;
}

function codeOf(body: string | undefined): string[] {
  if (!body) return [];
  const fenced = /```[a-z]*\n([\s\S]*?)```/.exec(body);
  return (fenced ? fenced[1] : body)
    .split('\n')
    .map(line => line.trimEnd())
    .filter(line => line.trim() !== '');
}

export function readAnswer(raw: string): AnswerSections {
  // JavaScript's line anchors also stop at CR, U+2028 and U+2029, which a page can put in its text
  // (a link's href is copied raw into the snapshot): only a newline ends a line here.
  const text = raw.replace(/[\r\u2028\u2029]/g, ' ');
  const sections = sectionsOf(text);
  const answer: AnswerSections = { code: codeOf(sections.get('Ran Playwright code')) };
  const page = sections.get('Page');
  const url = page && /^- Page URL: (.*)$/m.exec(page)?.[1]?.trim();
  if (url) answer.pageUrl = url;
  answer.tabs = tabListOf(sections.get('Open tabs') ?? '') ?? tabListOf(sections.get('Result') ?? '');
  if (!answer.tabs) delete answer.tabs;
  const modal = sections.get('Modal state');
  if (modal && /dialog/i.test(modal)) answer.modal = 'dialog';
  else if (modal && /file chooser/i.test(modal)) answer.modal = 'fileChooser';
  const snapshot = sections.get('Snapshot');
  if (snapshot !== undefined) {
    const link = /^- \[Snapshot\]\((.*)\)\s*$/m.exec(snapshot);
    if (link) answer.snapshotFile = link[1];
    else {
      const yaml = /```yaml\n([\s\S]*?)```/.exec(snapshot);
      answer.snapshot = (yaml ? yaml[1] : snapshot).trimEnd();
    }
  }
  return answer;
}

/** Each finished result's answer is read once (the step journal and time travel's timeline both read it, in the call's path). */
const answers = new WeakMap<CallToolResult, AnswerSections>();

/** What a finished call's result says; read once per result. Treat it as read-only: it is shared. */
export function answerOf(result: CallToolResult | undefined): AnswerSections {
  if (!result) return readAnswer('');
  let answer = answers.get(result);
  if (!answer) answers.set(result, (answer = readAnswer(resultText(result))));
  return answer;
}
