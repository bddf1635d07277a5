/**
 * The optional tool groups of @playwright/mcp (its `--caps`). Each maps to one boolean setting,
 * `playwrightBridge.capabilities.<id>`, so the manifest's `when` clauses can hide a group's tools
 * until the user turns it on. What each group does is said once, in package.nls.json.
 */
export const ALL_CAPABILITIES = ['vision', 'pdf', 'devtools', 'storage', 'network', 'testing', 'config'] as const;

export type CapabilityId = (typeof ALL_CAPABILITIES)[number];
