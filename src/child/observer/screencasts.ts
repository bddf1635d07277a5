import type { Page } from 'playwright';

const MAX_FPS = 30;

/** Sends one frame of the stream: its JPEG, when it came, and the page's CSS size it shows when the browser says it. */
export type FrameSender = (data: string, now: number, shown?: { width: number; height: number }) => void;

/** A running screencast of one page; `key` names what it was started for (the page's size, the frame's, the quality). */
export interface RunningScreencast {
  page: Page;
  key: string;
  stop(): Promise<void>;
}

/** What a screencast is started with: the frame's size and JPEG quality, and whether the channel is backed up now. */
export interface ScreencastSpec {
  size: { width: number; height: number };
  quality: number;
  key: string;
  congested(): boolean;
}

/**
 * Chromium's own screencast, paced at the source: every second paint (about 30 a second), and the
 * next frame only once we have acknowledged this one, so a busy pipe slows the browser's encoder
 * instead of wasting it.
 */
export async function startCdpScreencast(page: Page, spec: ScreencastSpec, send: FrameSender): Promise<RunningScreencast> {
  const session = await page.context().newCDPSession(page);
  session.on('Page.screencastFrame', (frame: { data: string; sessionId: number; metadata?: { deviceWidth?: number; deviceHeight?: number } }) => {
    const { deviceWidth, deviceHeight } = frame.metadata ?? {};
    const shown = deviceWidth && deviceHeight ? { width: Math.round(deviceWidth), height: Math.round(deviceHeight) } : undefined;
    if (!spec.congested()) send(frame.data, Date.now(), shown);
    void session.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => undefined);
  });
  const { size, quality } = spec;
  await session.send('Page.startScreencast', { format: 'jpeg', quality, maxWidth: size.width, maxHeight: size.height, everyNthFrame: 2 });
  return {
    page,
    key: spec.key,
    stop: async () => {
      await session.send('Page.stopScreencast').catch(() => undefined);
      await session.detach().catch(() => undefined);
    },
  };
}

/** Playwright's screencast (Firefox, WebKit): capped at 30 frames a second on our side. */
export async function startPlaywrightScreencast(page: Page, spec: ScreencastSpec, send: FrameSender): Promise<RunningScreencast> {
  // Paints come about 16.7 ms apart: allow a little early so every second one goes, not every third.
  const minGapMs = (1000 / MAX_FPS) * 0.75;
  let lastSent = 0;
  await page.screencast.start({
    size: spec.size,
    quality: spec.quality,
    onFrame: frame => {
      // Never queue: a frame that cannot go now is dropped; the next one is fresher anyway.
      const now = Date.now();
      if (now - lastSent < minGapMs || spec.congested()) return;
      lastSent = now;
      send(frame.data.toString('base64'), now);
    },
  });
  return { page, key: spec.key, stop: () => page.screencast.stop() };
}
