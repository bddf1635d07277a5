import type { BrowserEngine, ObservationEvent } from '../../protocol/childMessages';

export interface ObserverOptions {
  send(event: ObservationEvent): void;
  /** True while the channel to the extension is backed up: frames are dropped, never queued. */
  congested(): boolean;
  viewport: { width: number; height: number };
  /** Off for browsers (or tests) where streaming frames cannot be had: screenshots after changes instead. */
  screencast: boolean;
  /** Chromium lets us pace the stream at the source (CDP); other engines use Playwright's screencast. */
  engine: BrowserEngine;
  /** Whether the person set origin rules: a request the browser refused then says it was them. */
  originRules: boolean;
  log(line: string): void;
}
