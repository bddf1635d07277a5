import type { BrowserContext } from 'playwright';
import { ChildConfig } from '../core/childProcess/childConfig';
import { LaunchedBrowser, PlaywrightModule, launchBrowser, lossWatch } from './browserLauncher';

/**
 * The browser server the MCP clients' own contexts live in (isolation `perClient`): one browser,
 * launched on the first client's first call, with a fresh in-memory context per client. It is apart
 * from the window's browser because a persistent profile's browser cannot hold more contexts, and
 * so a client can never see the window's logins.
 */
export class ClientContexts {
  private server: Promise<LaunchedBrowser> | undefined;

  constructor(
    private readonly playwright: PlaywrightModule,
    private readonly config: ChildConfig,
    private readonly log: (line: string) => void,
  ) {}

  /** A new context of its own; `onLost` is called if it closes without being asked to. */
  async open(onLost: (why: string) => void): Promise<LaunchedBrowser> {
    const server = await this.browserServer();
    const context: BrowserContext = await server.browser!.newContext({ viewport: this.config.viewport, storageState: this.config.storageStatePath });
    const watch = lossWatch(onLost);
    context.on('close', () => watch.lost('its browser context closed unexpectedly (the browser server crashed or was killed).'));
    return { context, browser: server.browser, close: () => watch.close(() => context.close()) };
  }

  private browserServer(): Promise<LaunchedBrowser> {
    if (!this.server) {
      // In memory, whatever the window's profile: clients start clean (a login profile comes with each context).
      const launching = launchBrowser(
        this.playwright,
        { ...this.config, userDataDir: undefined, storageStatePath: undefined },
        why => {
          this.log(`The clients' browser server went away: ${why}`);
          if (this.server === launching) this.server = undefined;
        },
        { forClients: true },
      );
      this.server = launching;
      launching.catch(() => {
        if (this.server === launching) this.server = undefined;
      });
    }
    return this.server;
  }

  async close(): Promise<void> {
    const server = await this.server?.catch(() => undefined);
    this.server = undefined;
    await server?.close();
  }
}
