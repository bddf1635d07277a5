/**
 * What the browser emulates on one session's contexts (its named ones too): the Network pane's throttling and "Disable cache", and the agent's
 * bridge_emulate (the same network presets or its own figures, CPU slowdown, colour scheme, reduced motion).
 * One owner, so the panel's header and the agent's tool never disagree about what is on.
 *
 * Network and CPU go through Chromium's DevTools protocol, one CDP session per page (Playwright's
 * `newCDPSession`: a session on the browser's own pipe, no port opened), attached only while one of them is on.
 * A session with the Network domain enabled is sent every request's events; kept always, it slowed the panel
 * during a burst of requests (the panel bench's long tasks doubled), so it is there only while it does
 * something. Colour scheme and reduced motion are Playwright's `emulateMedia`, which every engine has. Other
 * engines have no such protocol: offline goes through Playwright's own `setOffline`, the rest is refused in words.
 */
import type { CDPSession, Page } from 'playwright';
import type { SessionContexts } from './sessionContexts';
import { type Emulation, NO_EMULATION } from '../protocol/devtoolsFacts';

/** DevTools' own presets (its NetworkManager): bytes a second and added round-trip latency. */
const PRESETS = {
  slow4g: { downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9, uploadThroughput: ((750 * 1000) / 8) * 0.9, latency: 150 * 3.75 },
  fast4g: { downloadThroughput: ((9 * 1000 * 1000) / 8) * 0.9, uploadThroughput: ((1.5 * 1000 * 1000) / 8) * 0.9, latency: 60 * 2.75 },
};

/** What the DevTools protocol is asked for this emulation's network. */
function networkOf(emulation: Emulation): { offline: boolean; latency: number; downloadThroughput: number; uploadThroughput: number } {
  const { throttling, custom } = emulation;
  if (throttling === 'custom' && custom) {
    return {
      offline: false,
      latency: custom.latencyMs,
      downloadThroughput: (custom.downloadKbps * 1000) / 8,
      uploadThroughput: (custom.uploadKbps * 1000) / 8,
    };
  }
  const preset = throttling === 'slow4g' || throttling === 'fast4g' ? PRESETS[throttling] : undefined;
  return {
    offline: throttling === 'offline',
    latency: preset?.latency ?? 0,
    downloadThroughput: preset?.downloadThroughput ?? -1,
    uploadThroughput: preset?.uploadThroughput ?? -1,
  };
}

/** True when the emulation needs a CDP session on each page (network or CPU). */
function needsProtocol(emulation: Emulation): boolean {
  return emulation.throttling !== 'none' || emulation.cacheDisabled || (emulation.cpuSlowdown ?? 1) > 1;
}

export class EmulationControl {
  private wanted: Emulation = NO_EMULATION;
  private readonly sessions = new Map<Page, Promise<CDPSession | undefined>>();
  private stopAttaching: (() => void) | undefined;
  private stopMedia: (() => void) | undefined;

  constructor(
    /** Every context of the session (its named ones too): the agent's emulation is for the tab it works in, wherever. */
    private readonly contexts: SessionContexts,
    private readonly engine: string,
    private readonly log: (line: string) => void,
    /** Told every change, whoever made it (the panel's header shows it). */
    private readonly changed: (emulation: Emulation) => void = () => undefined,
  ) {}

  get conditions(): Emulation {
    return this.wanted;
  }

  /** Applies the choice to every page of the context, and to pages it opens later; all off detaches. */
  async set(wanted: Emulation): Promise<Emulation> {
    const mediaChanged = wanted.colorScheme !== this.wanted.colorScheme || wanted.reducedMotion !== this.wanted.reducedMotion;
    if (this.engine !== 'chromium') {
      if (wanted.throttling !== 'none' && wanted.throttling !== 'offline') {
        throw new Error(`Throttling the network needs Chromium's DevTools protocol; this browser is ${this.engine}. Offline works.`);
      }
      if (wanted.cacheDisabled) throw new Error(`Disable cache needs Chromium's DevTools protocol; this browser is ${this.engine}.`);
      if ((wanted.cpuSlowdown ?? 1) > 1) throw new Error(`CPU slowdown needs Chromium's DevTools protocol; this browser is ${this.engine}.`);
      await Promise.all(this.contexts.contexts().map(context => context.setOffline(wanted.throttling === 'offline')));
      this.wanted = wanted;
    } else {
      this.wanted = wanted;
      const on = needsProtocol(wanted);
      // Each page open now and each one any of the session's contexts opens later.
      if (on && !this.stopAttaching) this.stopAttaching = this.contexts.onPage(page => this.attach(page));
      await Promise.all(
        [...this.sessions.values()].map(async session => {
          const cdp = await session;
          if (cdp) await this.apply(cdp);
        }),
      );
      if (!on) this.detach();
    }
    if (mediaChanged) {
      this.stopMedia?.();
      this.stopMedia = undefined;
      // The pages open now are awaited (the answer says what they see); later ones get it as they open.
      const open = this.contexts.pages();
      if (wanted.colorScheme || wanted.reducedMotion) {
        this.stopMedia = this.contexts.onPage(page => {
          if (!open.includes(page)) void this.applyMedia(page);
        });
      }
      await Promise.all(open.map(page => this.applyMedia(page)));
    }
    this.changed(wanted);
    return wanted;
  }

  private async applyMedia(page: Page): Promise<void> {
    // null puts the browser's own preference back.
    await page.emulateMedia({ colorScheme: this.wanted.colorScheme ?? null, reducedMotion: this.wanted.reducedMotion ?? null }).catch(error => {
      if (!page.isClosed()) this.log(`Emulation: ${(error as Error).message.split('\n')[0]}`);
    });
  }

  private attach(page: Page): void {
    const session = page
      .context()
      .newCDPSession(page)
      .then(async cdp => {
        // This session keeps no bodies of its own: Playwright's session has them.
        await cdp.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
        await this.apply(cdp);
        return cdp;
      })
      .catch(error => {
        // A page that closed while it opened: nothing to control.
        if (!page.isClosed()) this.log(`Emulation: ${(error as Error).message.split('\n')[0]}`);
        return undefined;
      });
    this.sessions.set(page, session);
    page.once('close', () => this.sessions.delete(page));
  }

  private async apply(cdp: CDPSession): Promise<void> {
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: this.wanted.cacheDisabled });
    await cdp.send('Network.emulateNetworkConditions', networkOf(this.wanted));
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: this.wanted.cpuSlowdown ?? 1 });
  }

  private detach(): void {
    this.stopAttaching?.();
    this.stopAttaching = undefined;
    for (const session of this.sessions.values()) void session.then(cdp => cdp?.detach().catch(() => undefined));
    this.sessions.clear();
  }

  dispose(): void {
    this.detach();
    this.stopMedia?.();
  }
}
