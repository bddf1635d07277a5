/**
 * What the bridge decided about each change a @playwright/mcp release made, by the change's key (upstreamDiff.ts):
 * in words, naming where the decision is carried out. `npm run upstream:check <version>` fails while a change of
 * that release has no entry here; an entry for a change no release makes any longer is reported as stale.
 * Add entries as a release is taken, never before the change they decide is carried out.
 */
export const UPSTREAM_DECISIONS: Record<string, string> = {
  // 0.0.83 → 0.0.86 (taken 2026-12-06).
  'newParameter:browser_tabs.isolatedContext':
    "A named context is the session's: src/child/sessionContexts.ts claims what upstream opens through the context it is handed; the panel lists its tabs with its name (observer/tabList.ts, webview/header.ts); the bridge's tools act on its current tab (callRouter.ts); an export opens it with browser.newContext() (core/tools/browserTabs.ts); time travel keeps and restores it (timeTravel/checkpoints.ts); a name is one line (checkTabsArgs). Tests: test/real/namedContexts.test.ts, sessionContexts.test.ts, testExport.test.ts, timeTravel.test.ts.",
  'newParameter:browser_network_requests.all':
    "Passed through: a read-only answer, masked by the egress gate like any other. Earlier requests are upstream's to keep (up to 200).",
  'newParameter:browser_find.maxResults': 'Passed through: a read-only search of the page; the bridge reads no argument of it.',
  'newParameter:browser_cookie_delete.domain':
    "Passed through: the storage tools act on the current tab's context (a named one too), which the bridge's policy does not read; an export leaves cookie tools out as before.",
  'newParameter:browser_cookie_delete.path': 'As browser_cookie_delete.domain: passed through, left out of exports.',
  'changedParameter:browser_wait_for.time':
    'The export writes a time given with text or textGone as their timeout, capped at 30 s, and both texts as either (core/tools/browserWaitFor.ts, test/unit/specWriter.test.ts).',
  'changedDescription:browser_wait_for': 'Regenerated into the manifest (npm run generate:tools); the export follows the race (see browser_wait_for.time).',
  'changedDescription:browser_close': 'Regenerated into the manifest; the bridge words browser_close only as "Closing the browser", still true.',
  'changedDescription:browser_cookie_delete': 'Regenerated into the manifest; the bridge words no cookie tool itself.',
  'changedDescription:browser_take_screenshot': 'Regenerated into the manifest; the bridge words screenshots itself only by what they show.',
  'changedFlag:--allowed-hosts':
    "Not set: the child serves no HTTP of upstream's; the bridge's MCP door checks Host and Origin itself (core/mcpDoor/requestGuard.ts).",
  'changedFlag:--proxy-server': 'Not set by the bridge (no proxy setting); launchArgs may carry --proxy-server to the browser as before.',
  'newFlag:--ignore-roots': "Not needed: the child's inner client answers roots with the window's folders itself (innerSessionRegistry.ts).",
  'newFlag:--background': 'Only for --extension, which the bridge never uses.',
  'newFlag:--no-tab-group': 'Only for --extension, which the bridge never uses.',
  'newFlag:--session-name': 'Only for --extension, which the bridge never uses.',
  'newFlag:--session-color': 'Only for --extension, which the bridge never uses.',
  'newFlag:--redact-url-params':
    "Not set: the bridge's egress gate masks every secret's value in every spelling browsers encode it (core/egress/secretMask.ts), URL parameters included; a parameter list is a list the next name escapes.",
  'newConfigKey:background': 'As --background: extension only.',
  'newConfigKey:tabGroup': 'As --no-tab-group: extension only.',
  'newConfigKey:sessionName': 'As --session-name: extension only.',
  'newConfigKey:sessionColor': 'As --session-color: extension only.',
  'newConfigKey:ignoreRoots': 'As --ignore-roots: the child answers roots itself.',
  'newConfigKey:redactUrlParams': 'As --redact-url-params: the egress gate masks secrets by their value.',
  'changedCode:browser_close':
    "An export leaves browser_close out (its record's export is none): a test's browser is Playwright Test's to close. The bridge's own session recovery after it is unchanged (innerSessionRegistry.ts).",
  'changedCode:browser_cookie_delete': 'An export leaves the cookie tools out, as before; the answer passes through unchanged.',
  'changedCode:browser_wait_for':
    "An export writes its own assertion for a wait (core/tools/browserWaitFor.ts), now either text and the time as their timeout, as upstream's race does.",
};
