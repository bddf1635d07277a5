/**
 * Upstream's own word on its current tab: an answer that lists tabs (browser_tabs, and any call while
 * more than one tab is open) marks one line `- N: (current) [title](url)`. Read here only, by the live
 * view and by the secrets' site check, so the bridge's idea of the current tab is upstream's.
 */

/** The index of the tab upstream calls current, when the answer lists tabs, and whether a page's address is the one it names. */
export function currentTabListed(answerText: string): { index: number; names(url: string): boolean } | undefined {
  const line = answerText.split('\n').find(l => /^- \d+: \(current\)/.test(l));
  if (!line) return undefined;
  return { index: Number(/^- (\d+)/.exec(line)![1]), names: url => line.endsWith(`(${url})`) };
}
