/**
 * The optional tool groups of @playwright/mcp (its `--caps`). Each maps to one boolean setting,
 * `playwrightBridge.capabilities.<id>`, so the manifest's `when` clauses can hide a group's tools
 * until the user turns it on.
 */
export const CAPABILITY_GROUPS = [
  { id: 'vision', description: 'Coordinate-based mouse tools (click, drag, move at x/y) for models that work from screenshots.' },
  { id: 'pdf', description: 'Save the current page as a PDF file.' },
  { id: 'devtools', description: 'Developer tools: tracing, video, highlighting, locator generation, stepping through code.' },
  { id: 'storage', description: 'Read and change cookies, localStorage, sessionStorage and saved storage state.' },
  { id: 'network', description: 'Mock, block and inspect network requests, and take the page offline.' },
  { id: 'testing', description: 'Assertions for tests: verify that text, elements, lists and values are visible.' },
  { id: 'config', description: 'Read the browser configuration the server runs with.' },
] as const;

export type CapabilityId = (typeof CAPABILITY_GROUPS)[number]['id'];

export const ALL_CAPABILITIES: CapabilityId[] = CAPABILITY_GROUPS.map(g => g.id);

export function capabilitySettingKey(id: CapabilityId): string {
  return `capabilities.${id}`;
}
