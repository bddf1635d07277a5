/**
 * Chrome DevTools' own frontend, as the watched browser itself bundles it (`devtools://devtools/bundled/…`): the
 * same version as the browser, nothing downloaded. Without a debugging port Chromium serves it to no one, so its
 * files are read by a page of the frontend's own origin in a private context of that browser (upstream, the panel
 * and the agent never see it) and handed to the endpoint one file at a time, as DevTools asks for them.
 */
import type { Browser, BrowserContext, Page } from 'playwright';

const BUNDLED = 'devtools://devtools/bundled/';
/** A file's path under the bundle: plain segments only (no `..`, no scheme, no query). */
const FILE_PATH = /^(?:[\w.-]+\/)*[\w.-]+$/;

export interface FrontendFile {
  status: number;
  type: string;
  body: Buffer;
}

export class DevtoolsFrontend {
  private reader: Promise<{ context: BrowserContext; page: Page }> | undefined;

  constructor(private readonly browser: Browser) {}

  /** One file of the frontend (`inspector.html`, `entrypoints/…`), or 404 for a path that is none. */
  async file(path: string): Promise<FrontendFile> {
    if (!FILE_PATH.test(path) || path.split('/').some(segment => segment === '..' || segment === '.'))
      return { status: 404, type: 'text/plain', body: Buffer.from('No such file') };
    const { page } = await this.open();
    const read = await page.evaluate(async (url: string) => {
      try {
        const response = await fetch(url);
        const bytes = new Uint8Array(await response.arrayBuffer());
        let binary = '';
        for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return { status: response.status, type: response.headers.get('content-type') ?? '', base64: btoa(binary) };
      } catch {
        return { status: 404, type: 'text/plain', base64: btoa('No such file') };
      }
    }, BUNDLED + path);
    return { status: read.status, type: read.type || 'application/octet-stream', body: Buffer.from(read.base64, 'base64') };
  }

  private open(): Promise<{ context: BrowserContext; page: Page }> {
    this.reader ??= (async () => {
      const context = await this.browser.newContext();
      const page = await context.newPage();
      await page.goto(`${BUNDLED}devtools_app.html`);
      return { context, page };
    })();
    // A reader that failed (the browser closing) is tried afresh next time.
    this.reader.catch(() => (this.reader = undefined));
    return this.reader;
  }

  async close(): Promise<void> {
    const reader = this.reader;
    this.reader = undefined;
    await reader?.then(({ context }) => context.close()).catch(() => undefined);
  }
}
