/**
 * What the bridge decided about each change a @playwright/mcp release made, by the change's key (upstreamDiff.ts):
 * in words, naming where the decision is carried out. `npm run upstream:check <version>` fails while a change of
 * that release has no entry here; an entry for a change no release makes any longer is reported as stale.
 * Add entries as a release is taken, never before the change they decide is carried out.
 */
export const UPSTREAM_DECISIONS: Record<string, string> = {};
