/**
 * The child's configuration, as the host writes it on the child's private pipe and the child reads
 * it: one zod schema, the TypeScript types inferred from it. The child parses with it, so a config
 * that does not match (a host and child of different builds, a hand-started child) stops the child
 * with a message naming the field, instead of failing somewhere later.
 */
import { z } from 'zod';
import { BrowserEngineSchema, ChildPrivateInputSchema, ConsoleLevelSchema } from './childMessages';

/** Browsers a person can name; `auto` takes the first installed of Chrome, Edge and Chromium. */
export const BROWSERS = ['auto', 'chrome', 'msedge', 'chromium', 'firefox', 'webkit'] as const;
export type BrowserChoice = (typeof BROWSERS)[number];
/** A browser the bridge can actually launch (what `auto` resolves to). */
export type BrowserName = Exclude<BrowserChoice, 'auto'>;

const BrowserNameSchema = z.enum(BROWSERS).exclude(['auto']);

/** A browser found installed on this machine. */
export const FoundBrowserSchema = z.object({ browser: z.enum(['chrome', 'msedge', 'chromium']), path: z.string() });
export type FoundBrowser = z.infer<typeof FoundBrowserSchema>;

/** How the child launches the chosen browser, and what that means in words for error messages. */
export const BrowserLaunchPlanSchema = z.object({
  /** What the setting says (possibly `auto`). */
  choice: z.enum(BROWSERS),
  /** The browser this plan launches. */
  browser: BrowserNameSchema,
  engine: BrowserEngineSchema,
  /** Playwright's channel for branded browsers (chrome, msedge). */
  channel: z.string().optional(),
  executablePath: z.string().optional(),
  /** Human-readable list of what this plan tries, in order, for the error when it fails. */
  tried: z.array(z.string()),
  /** Chromium-family browsers installed here, for the fix text when the chosen one fails. */
  found: z.array(FoundBrowserSchema),
  /** One line for people: which browser, and why this one. */
  summary: z.string(),
});
export type BrowserLaunchPlan = z.infer<typeof BrowserLaunchPlanSchema>;

export const ConnectionProtocolSchema = z.enum(['playwright', 'cdp']);
export type ConnectionProtocol = z.infer<typeof ConnectionProtocolSchema>;

/** A browser elsewhere (a Playwright server or CDP) the child connects to instead of launching. */
export const BrowserConnectionSchema = z.object({
  protocol: ConnectionProtocolSchema,
  endpoint: z.string(),
  /** Headers from settings (not credentials; those come from SecretStorage at start). */
  headers: z.record(z.string(), z.string()),
  /** A browser we did not start: Restart Browser reconnects, closing VS Code leaves it running. */
  summary: z.string(),
});
export type BrowserConnection = z.infer<typeof BrowserConnectionSchema>;

/** Upstream's options the person sets (settingsTable.ts takes its values from these). */
export const IsolationSchema = z.enum(['shared', 'perClient']);
export const SnapshotModeSchema = z.enum(['full', 'none']);
export const ImageResponsesSchema = z.enum(['allow', 'omit', 'only']);

const size = z.object({ width: z.number().int().positive(), height: z.number().int().positive() });

/**
 * Everything the child needs, as plain JSON. The child owns the browser launch (so it can watch
 * the browser and recover from `browser_close`), so launch details live here rather than in
 * @playwright/mcp's own config (`mcp`); the child adds a description of the browser to that one
 * (src/child/upstreamConfig.ts) so browser_get_config tells the truth.
 */
export const ChildConfigSchema = z.object({
  launch: BrowserLaunchPlanSchema,
  headless: z.boolean(),
  /** Set for a persistent profile; absent for an isolated, in-memory one. */
  userDataDir: z.string().optional(),
  viewport: size,
  /** A Playwright device the person chose in the panel (its name in Playwright's list): the window's context emulates it instead of `viewport`. */
  device: z.string().max(100).optional(),
  launchArgs: z.array(z.string()),
  chromiumSandbox: z.boolean(),
  /** Folders the tools may read and write files in (MCP roots). */
  roots: z.array(z.string()),
  /** Stream frames with the browser's screencast; off means a screenshot after each change instead. */
  screencast: z.boolean(),
  /**
   * Bytes the files the bridge writes may take in its output folder; beyond it the oldest of them
   * go. Upstream's own budget is off: it deleted every old file under the folder, whoever wrote it.
   */
  outputBudgetBytes: z.number().nonnegative(),
  /** Time travel: a checkpoint (address, size, changed storage) after each step of the window's context. */
  checkpoints: z.boolean(),
  /** Connect to a browser elsewhere instead of launching (headers here are not credentials: see ChildPrivateInput). */
  connection: BrowserConnectionSchema.optional(),
  /** A login profile's file: new contexts start from its cookies and local storage. */
  storageStatePath: z.string().optional(),
  /** `perClient`: each MCP client session at the endpoint gets its own browser context. */
  isolation: IsolationSchema,
  /** A client's own context closes after this long without a call. */
  sessionIdleMs: z.number().nonnegative(),
  /** `perClient`: MCP clients may run browser_run_code_unsafe (its code reaches every client's context). */
  allowRunCodeForClients: z.boolean(),
  mcp: z.object({
    capabilities: z.array(z.string()),
    /** The bridge's own folder (OUTPUT_SUBFOLDER inside the chosen one): upstream writes here. */
    outputDir: z.string(),
    filePaths: z.literal('absolute'),
    timeouts: z.object({ action: z.number().positive(), navigation: z.number().positive(), idle: z.number().nonnegative() }),
    snapshot: z.object({ mode: SnapshotModeSchema }),
    imageResponses: ImageResponsesSchema,
    console: z.object({ level: ConsoleLevelSchema }),
    network: z.object({ allowedOrigins: z.array(z.string()).optional(), blockedOrigins: z.array(z.string()).optional() }),
    /** Set by the child from its private input, never written into this JSON by the extension. */
    secrets: z.record(z.string(), z.string()).optional(),
  }),
});
export type ChildConfig = z.infer<typeof ChildConfigSchema>;

/** Whether the person's origin rules (allowed or blocked origins) limit where the browser may go. */
export function hasOriginRules(config: Pick<ChildConfig, 'mcp'>): boolean {
  const rules = config.mcp.network;
  return !!(rules.allowedOrigins?.length || rules.blockedOrigins?.length);
}

/** The whole start input on the pipe: the configuration beside the private part (secrets, credentials). */
export const ChildStartInputSchema = ChildPrivateInputSchema.extend({ config: ChildConfigSchema });
export type ChildStartInput = z.infer<typeof ChildStartInputSchema>;
