/**
 * Language-model tools the extension host answers itself, not the child: declared in package.json with
 * the child's (the manifest generator appends them), registered apart from the child's tools.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

export const EXPORT_TEST_TOOL = 'bridge_export_test';

export const HOST_TOOLS: Tool[] = [
  {
    name: EXPORT_TEST_TOOL,
    description: 'Playwright Bridge: writes what was done in the browser in this window (every successful action since the browser ' +
      'started, or the last N steps) as a Playwright test file in the workspace, opens it, and runs it headless 3 times with Playwright ' +
      'Test (no model, no bridge: plain Playwright). Answers whether it passed and, if not, the first failing line and step. Reads ' +
      '(snapshots, screenshots, console, network), failed calls and the bridge\'s own tools leave nothing; secrets stay ' +
      "process.env['NAME']. A test that fails is kept as *.failing.spec.ts, never under a passing name. The person confirms first.",
    inputSchema: {
      type: 'object',
      properties: {
        title: { type: 'string', description: 'The test\'s title (also its file name when file is not given).' },
        file: { type: 'string', description: 'Where to write it, relative to the workspace folder, ending in .spec.ts. Default: tests/<title>.spec.ts. An existing file is never replaced.' },
        lastSteps: { type: 'integer', minimum: 1, description: 'Only the last N steps of the session (all of them when not given).' },
      },
      additionalProperties: false,
    },
    annotations: { title: 'Export the browser session as a Playwright test' },
  },
];

export const HOST_TOOL_NAMES = new Set(HOST_TOOLS.map(tool => tool.name));
