/**
 * browser_tabs: upstream's own word on its current tab: browser_tabs answers with the tab list first, one line
 * `- N: (current) [title](url)` marked. Read only from browser_tabs answers (other answers can carry a
 * page's text, which may imitate such a line), by the live view and by the secrets' site check.
 */
import { tabListOf } from '../../core/tools/browserTabs';

/**
 * The index of the tab upstream calls current, read from the answer's Result section only (a dialog's
 * text, which the page writes, is quoted in a later section), and whether a page's address is the one it names.
 */
export function currentTabListed(answerText: string): { index: number; names(url: string): boolean } | undefined {
  const lines = answerText.split('\n');
  const start = lines.findIndex(l => l.trim() === '### Result');
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && l.startsWith('### '));
  const current = tabListOf(lines.slice(start + 1, end < 0 ? undefined : end).join('\n'))?.find(tab => tab.current);
  return current && { index: current.index, names: url => url === current.url };
}
