/**
 * Telling the suite's own output from VS Code's: inside VS Code every line of ours starts with this
 * mark (invisible if it ever shows). The launcher prints marked lines and files away the rest.
 */
export const SUITE_LINE_MARK = '\u2063pwb\u2063';

/** The suite's line without its mark, or undefined for a line of VS Code's own. */
export function suiteLine(text: string): string | undefined {
  const at = text.indexOf(SUITE_LINE_MARK);
  return at < 0 ? undefined : text.slice(at + SUITE_LINE_MARK.length);
}
