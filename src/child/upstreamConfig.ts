import { ChildConfig } from '../core/childProcess/childConfig';
import { redactEndpoint } from '../core/settings/browserConnection';
import { contextOptionsOf, launchArgsOf } from './launchOptions';
import { secretPlaceholder } from '../protocol/childMessages';

/** The `browser` section of @playwright/mcp's config (see its config.d.ts), as far as the bridge fills it. */
interface UpstreamBrowserSection {
  browserName: 'chromium' | 'firefox' | 'webkit';
  isolated?: false;
  userDataDir?: string;
  launchOptions?: { channel?: string; executablePath?: string; headless?: boolean; chromiumSandbox?: boolean; args?: string[] };
  contextOptions: { viewport: { width: number; height: number } | null } & Record<string, unknown>;
  cdpEndpoint?: string;
  remoteEndpoint?: string;
}

/**
 * The config handed to upstream's createConnection. Upstream never launches with it (the child's
 * context getter does), but browser_get_config prints it: so its `browser` section describes the
 * browser the child really runs, with the very arguments of launchOptions.ts, instead of upstream's
 * defaults (channel "chrome", a sandbox, no viewport). `forClients`: the MCP clients' own contexts.
 */
export function upstreamConfigOf(config: ChildConfig, use: { forClients?: boolean } = {}): ChildConfig['mcp'] & { browser: UpstreamBrowserSection } {
  return {
    ...config.mcp,
    browser: browserSectionOf(config, !!use.forClients),
    ...(config.mcp.secrets ? { secrets: shownByName(config.mcp.secrets) } : {}),
    // WebMCP tools come from the window's current page and are listed to every client: with perClient
    // they would show one client (or the window) another's page. Off there; as upstream otherwise.
    ...(config.isolation === 'perClient' ? { webmcp: false } : {}),
  };
}

function browserSectionOf(config: ChildConfig, forClients: boolean): UpstreamBrowserSection {
  const connection = config.connection;
  const browserName = config.launch.engine;
  const viewport = config.viewport;
  // Endpoints as everywhere the model reads them: without user name, password or query. Headers never
  // (credentials from secret storage are merged into them); `isolated` never (upstream would open a
  // second context of its own beside ours).
  if (connection?.protocol === 'cdp') {
    // The window's session works in the person's own context, at its own window size; clients get a context of ours.
    return { browserName: 'chromium', cdpEndpoint: redactEndpoint(connection.endpoint), contextOptions: { viewport: forClients ? viewport : null } };
  }
  if (connection)
    return { browserName, remoteEndpoint: redactEndpoint(connection.endpoint), contextOptions: { viewport, ...contextOptionsOf(config, forClients) } };
  const launchOptions: UpstreamBrowserSection['launchOptions'] = {
    channel: config.launch.channel,
    executablePath: config.launch.executablePath,
    headless: config.headless,
    args: launchArgsOf(config),
  };
  if (browserName === 'chromium') launchOptions.chromiumSandbox = config.chromiumSandbox;
  // The clients' browser is always in memory (see ClientContexts).
  const userDataDir = forClients ? undefined : config.userDataDir;
  return {
    browserName,
    ...(userDataDir ? { isolated: false, userDataDir } : {}),
    launchOptions,
    contextOptions: { viewport, ...contextOptionsOf(config, forClients) },
  };
}

/**
 * The secrets as upstream needs them (it types a value where the model writes its name), but written
 * out by name only: browser_get_config prints its config with JSON.stringify, which calls toJSON. Not
 * enumerable, so upstream's own reading of the names and values is untouched. The result mask would
 * catch the values too; this keeps them out of the text in the first place.
 */
function shownByName(secrets: Record<string, string>): Record<string, string> {
  const copy = { ...secrets };
  const byName = Object.fromEntries(Object.keys(secrets).map(name => [name, secretPlaceholder(name)]));
  Object.defineProperty(copy, 'toJSON', { value: () => byName, enumerable: false });
  return copy;
}
