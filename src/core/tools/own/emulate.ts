/** bridge_emulate: the network, CPU, colour scheme and reduced motion the caller's browser context emulates (child/devtools/). */
import { z } from 'zod';
import { ColorSchemeSchema, ReducedMotionSchema, ThrottlingSchema } from '../../../protocol/devtoolsFacts';
import { defineOwnTool } from '../defineOwnTool';

export const EMULATE = defineOwnTool({
  name: 'bridge_emulate',
  title: 'Emulate network, CPU and media',
  description:
    "Playwright Bridge: makes the browser of this session emulate a slower network (offline, DevTools' slow or fast 4G, or " +
    'your own figures), a slower CPU (4 or 6 times, as DevTools offers), a colour scheme or reduced motion, until changed, reset, or the ' +
    'session ends. A field you leave out keeps its value; "none" turns one off; reset: true turns them all off. The person sees what is ' +
    'on in the panel. Network and CPU: Chromium only.',
  input: z.object({
    network: ThrottlingSchema.optional().describe('Network throttling.'),
    downloadKbps: z.number().gt(0).optional().describe('For network "custom": download speed in kbit/s.'),
    uploadKbps: z.number().gt(0).optional().describe('For network "custom": upload speed in kbit/s.'),
    latencyMs: z.number().min(0).optional().describe('For network "custom": added round-trip time in ms.'),
    cpuSlowdown: z.number().min(1).max(20).optional().describe('How many times slower the CPU runs (1: no slowdown; DevTools offers 4 and 6).'),
    colorScheme: z
      .enum([...ColorSchemeSchema.options, 'none'])
      .optional()
      .describe("prefers-color-scheme; none: the browser's own."),
    reducedMotion: z
      .enum([...ReducedMotionSchema.options, 'none'])
      .optional()
      .describe("prefers-reduced-motion; none: the browser's own."),
    reset: z.boolean().optional().describe('Turn every emulation off first.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  traits: { handler: 'child', onPage: true, actsOnPage: true, observation: false, exportAs: 'comment' },
  says: () => 'Changing what the browser emulates',
});
