import type { Page } from 'playwright';
import { FramePacer } from './framePacer';

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

/** Paints come about 16.7 ms apart: allow a little early so every second one goes, not every third. */
const MIN_GAP_MS = (1000 / MAX_FPS) * 0.75;

/**
 * Chromium's own screencast: every compositor frame comes (`everyNthFrame: 1`), is acknowledged at once, and
 * the pacer sends at most 30 a second, the newest of those that came too soon kept until it may go. Asking
 * Chromium for every second frame instead lost any single paint that fell on an odd frame: a page that drew its
 * data once and then stood still stayed on "loading…" in the picture (see FramePacer).
 */
export async function startCdpScreencast(page: Page, spec: ScreencastSpec, send: FrameSender): Promise<RunningScreencast> {
  const session = await page.context().newCDPSession(page);
  type Shown = { data: string; shown?: { width: number; height: number } };
  const pacer = new FramePacer<Shown>(MIN_GAP_MS, spec.congested, (frame, cameAt) => send(frame.data, cameAt, frame.shown));
  session.on('Page.screencastFrame', (frame: { data: string; sessionId: number; metadata?: { deviceWidth?: number; deviceHeight?: number } }) => {
    const { deviceWidth, deviceHeight } = frame.metadata ?? {};
    const shown = deviceWidth && deviceHeight ? { width: Math.round(deviceWidth), height: Math.round(deviceHeight) } : undefined;
    pacer.offer({ data: frame.data, shown });
    void session.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => undefined);
  });
  const { size, quality } = spec;
  await session.send('Page.startScreencast', { format: 'jpeg', quality, maxWidth: size.width, maxHeight: size.height, everyNthFrame: 1 });
  return {
    page,
    key: spec.key,
    stop: async () => {
      pacer.stop();
      await session.send('Page.stopScreencast').catch(() => undefined);
      await session.detach().catch(() => undefined);
    },
  };
}

/** Playwright's screencast (Firefox, WebKit): paced on our side the same way. */
export async function startPlaywrightScreencast(page: Page, spec: ScreencastSpec, send: FrameSender): Promise<RunningScreencast> {
  const pacer = new FramePacer<Buffer>(MIN_GAP_MS, spec.congested, (data, cameAt) => send(data.toString('base64'), cameAt));
  await page.screencast.start({ size: spec.size, quality: spec.quality, onFrame: frame => pacer.offer(frame.data) });
  return {
    page,
    key: spec.key,
    stop: () => {
      pacer.stop();
      return page.screencast.stop();
    },
  };
}
