/** bridge_export_test: the window's session as a Playwright test, written, opened and run (the extension host answers it). */
import { z } from 'zod';
import { defineOwnTool } from '../defineOwnTool';
import { short } from '../callWords';

export const EXPORT_TEST = defineOwnTool({
  name: 'bridge_export_test',
  title: 'Export the browser session as a Playwright test',
  description:
    'Playwright Bridge: writes what was done in the browser in this window (every successful action since the browser ' +
    'started, or the last N steps) as a Playwright test file in the workspace, opens it, and runs it headless 3 times with Playwright ' +
    'Test (no model, no bridge: plain Playwright). Answers whether it passed and, if not, the first failing line and step. Reads ' +
    "(snapshots, screenshots, console, network), failed calls and the bridge's own tools leave nothing; secrets stay " +
    "process.env['NAME']. A test that fails is kept as *.failing.spec.ts, never under a passing name. The person confirms first.",
  input: z.object({
    title: z.string().optional().describe("The test's title (also its file name when file is not given)."),
    file: z
      .string()
      .optional()
      .describe('Where to write it, relative to the workspace folder, ending in .spec.ts. Default: tests/<title>.spec.ts. An existing file is never replaced.'),
    lastSteps: z.number().int().min(1).optional().describe('Only the last N steps of the session (all of them when not given).'),
  }),
  traits: { handler: 'host', actsOnPage: false, observation: false, exportAs: 'own' },
  says: a => `Exporting the browser session as a Playwright test${typeof a.file === 'string' ? ` to ${short(a.file)}` : ''}`,
});
