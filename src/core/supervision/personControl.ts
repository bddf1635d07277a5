/**
 * The person at the panel: whether they have taken the browser (agents' calls then wait), and what they
 * changed while they had it (for the model's next result). What they do through their own door (recorded
 * actions, input, navigation) is personDoor.ts.
 */
import type { TabInfo } from '../../protocol/childMessages';
import { Emitter } from '../emitter';

export type HandBackWait = { outcome: 'released' } | { outcome: 'cancelled' } | { outcome: 'timeout'; heldSeconds: number; limitSeconds: number };

export class PersonControl {
  private control: { since: number; before: readonly TabInfo[]; released: Promise<void>; release(): void } | undefined;
  private notice: string | undefined;
  private readonly emitter = new Emitter<boolean>();
  /** Fires true when the person takes the browser and false when they hand it back. */
  readonly onDidChange = this.emitter.event;

  /** `tabs`: the watched context's tabs, as the supervisor keeps them (watchedTabs.ts). */
  constructor(
    private readonly now: () => number,
    private readonly log: (line: string) => void,
    private readonly tabs: () => readonly TabInfo[],
  ) {}

  get active(): boolean {
    return !!this.control;
  }

  take(): void {
    if (this.control) return;
    let release!: () => void;
    const released = new Promise<void>(resolve => (release = resolve));
    this.control = { since: this.now(), before: this.tabs(), released, release };
    this.log('The person took control of the browser; agent calls wait until it is handed back');
    this.emitter.fire(true);
  }

  handBack(): void {
    const control = this.control;
    if (!control) return;
    this.control = undefined;
    this.notice = describeChanges(control.before, this.tabs(), Math.round((this.now() - control.since) / 1000));
    this.log('The person handed the browser back');
    this.emitter.fire(false);
    control.release();
  }

  /** Waits until the person hands back, the limit passes, or the caller gives up. */
  async wait(limitMs: number, signal: AbortSignal | undefined): Promise<HandBackWait> {
    const control = this.control;
    if (!control) return { outcome: 'released' };
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      return await Promise.race([
        control.released.then(() => ({ outcome: 'released' as const })),
        new Promise<HandBackWait>(
          resolve =>
            (timer = setTimeout(
              () =>
                resolve({
                  outcome: 'timeout',
                  heldSeconds: Math.round((this.now() - control.since) / 1000),
                  limitSeconds: Math.round(limitMs / 1000),
                }),
              limitMs,
            )),
        ),
        new Promise<HandBackWait>(resolve => {
          onAbort = () => resolve({ outcome: 'cancelled' });
          signal?.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  /** What the person changed, once: for the first model result after they handed back. */
  takeNotice(): string | undefined {
    const notice = this.notice;
    this.notice = undefined;
    return notice;
  }

  dispose(): void {
    this.emitter.dispose();
    this.control?.release();
  }
}

/** What the person changed while they had the browser, as the model should read it. */
export function describeChanges(before: readonly TabInfo[], after: readonly TabInfo[], seconds: number): string {
  const current = after.find(tab => tab.current);
  const was = before.find(tab => tab.current);
  const where = current ? `the current tab is "${current.title || current.url}" at ${current.url}` : 'no page is open';
  const changes: string[] = [];
  if (was && current && (was.url !== current.url || was.title !== current.title)) changes.push(`it was "${was.title || was.url}" at ${was.url}`);
  if (before.length !== after.length) changes.push(`${after.length} tab${after.length === 1 ? '' : 's'} open, ${before.length} before`);
  return (
    `Note: the person drove the browser for ${seconds} s while this call waited. Now ${where}${changes.length ? ` (${changes.join('; ')})` : ''}. ` +
    'Take a snapshot before acting on earlier element references.'
  );
}
