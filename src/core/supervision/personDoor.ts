/**
 * The person's door: what the person at the panel does themselves, never an agent's call. They take the
 * browser (agents' calls wait on personControl.ts) and hand it back with their actions recorded as code;
 * their input and navigation go to the page. Each is listed in Activity under their door, and what they
 * changed is told to the model of the context they drove (the one the panel shows), no other.
 */
import type { InputEvent, PageAction, PageActionResult } from '../../protocol/childMessages';
import { truncate } from '../tools/callWords';
import type { ChildConnection } from '../childProcess/childProcess';
import { CallResult } from '../pipeline/callResult';
import { PERSON_ACTIONS, PERSON_PAGE_ACTION, type ActivityLog, type ToolCallRecord } from './activityLog';
import type { ContextNotes } from './contextNotes';
import type { PersonControl } from './personControl';

export interface PersonDoorOptions {
  control: PersonControl;
  activity: ActivityLog;
  notes: ContextNotes;
  /** The child while one runs: the person's input and recording start no browser. */
  live: () => ChildConnection | undefined;
  /** The ready child, started if needed: a navigation from the panel starts the browser. */
  ready: () => Promise<ChildConnection>;
  now: () => number;
  log: (line: string) => void;
}

export class PersonDoor {
  private lastInput = { doing: '', at: 0 };
  /** The row of the person's last click in the picture, named once the child says what was under it. */
  private lastClick: { doing: string; end: (fields: Partial<ToolCallRecord>) => void } | undefined;
  /** While the person has control: the child recording their actions (undefined when none could). */
  private recording: Promise<ChildConnection | undefined> | undefined;

  constructor(private readonly options: PersonDoorOptions) {}

  /**
   * The person takes the browser: agents' calls wait until they hand it back (or time out). Resolves once their
   * actions are being recorded (or recording failed, which is logged): it never rejects, so a caller may ignore it.
   */
  async takeControl(): Promise<void> {
    const { control, log } = this.options;
    if (control.active) return;
    control.take();
    // What they do is recorded as Playwright code (the child runs Playwright's recorder), for exported tests.
    const child = this.options.live();
    this.recording = child?.request('recordPerson', { action: 'start' }).then(
      () => child,
      error => {
        log(`The person's actions are not recorded: ${(error as Error).message}`);
        return undefined;
      },
    );
    await this.recording;
  }

  /**
   * The person hands the browser back: their recorded actions are listed (under their own door, as code an
   * exported test takes), then waiting calls go on, and the next result says what changed.
   */
  async handBack(): Promise<void> {
    const { control, log } = this.options;
    if (!control.active) return;
    const recording = this.recording;
    this.recording = undefined;
    const child = recording ? await recording : undefined;
    if (child && !child.exited) {
      try {
        const { code, url, origins } = await child.request('recordPerson', { action: 'stop' });
        if (code.length) {
          // Written as upstream writes an action's code, by the one result builder, for Activity and the export.
          const recorded = new CallResult();
          recorded.respond(['### Ran Playwright code', '```js', ...code, '```', ...(url ? ['### Page', `- Page URL: ${url}`] : [])].join('\n'));
          this.options.activity.begin({
            name: PERSON_ACTIONS,
            args: undefined,
            door: 'person',
            title: `${code.length} recorded step${code.length === 1 ? '' : 's'} while you had control`,
          })({ outcome: 'ok', result: recorded.finish().result, origins: origins ?? [] });
        }
      } catch (error) {
        log(`The person's recorded actions were lost: ${(error as Error).message}`);
      }
    }
    control.handBack();
    // What they changed is news to the model of the context they drove (the one the panel shows), no other.
    const changes = control.takeNotice();
    if (changes) this.options.notes.watched.panel.add(changes);
  }

  /** The person's mouse or keyboard from the panel, to the page (only while a browser runs). */
  sendInput(event: InputEvent): void {
    const child = this.options.live();
    if (!child) return;
    child.notify('input', { event });
    // In the activity list under the person's door: one row per burst, not per event.
    const doing = personInputDoing(event);
    if (!doing) return;
    const now = this.options.now();
    // Typing and scrolling are one row per burst; each click is its own (it names what it pressed).
    const click = event.kind === 'mouse';
    const sameBurst = !click && this.lastInput.doing === doing && now - this.lastInput.at < 2000;
    this.lastInput = { doing, at: now };
    if (sameBurst) return;
    const end = this.options.activity.begin({ name: `panel:${doing}`, args: undefined, door: 'person', title: `${capitalized(doing)} on the page` });
    end({ outcome: 'ok' });
    this.lastClick = click ? { doing, end } : undefined;
  }

  /** What the person's last click pressed, as the child read it before the click reached it: its row names it. */
  clicked(target: { role: string; name: string }): void {
    const click = this.lastClick;
    this.lastClick = undefined;
    if (!click) return;
    // A plain block's "name" is all its text: only elements with a role are named.
    const name = truncate(target.name, 60);
    const what = target.role === 'generic' ? 'the page' : name ? `${target.role} “${name}”` : `a ${target.role}`;
    click.end({ outcome: 'ok', title: `${capitalized(click.doing)} ${what}` });
  }

  /** The person's navigation from the panel: listed in the activity list under their own door. */
  async pageAction(action: PageAction): Promise<PageActionResult> {
    // An exported test repeats it (core/testExport); while the person has control the recorder writes it instead.
    const name = this.options.control.active ? `panel:${action.action}` : PERSON_PAGE_ACTION;
    const end = this.options.activity.begin({ name, args: { ...action }, door: 'person', title: pageActionTitle(action) });
    let result: PageActionResult;
    try {
      result = await (await this.options.ready()).request('pageAction', { pageAction: action });
    } catch (error) {
      result = { ok: false, message: (error as Error).message };
    }
    // A tab is named to the test by its place in the tab strip, which only the child knows.
    const args = result.tabIndex !== undefined ? { args: { ...action, tabIndex: result.tabIndex } } : {};
    end({ outcome: result.ok ? 'ok' : 'error', error: result.ok ? undefined : result.message, ...args });
    if (result.ok && action.action === 'resize') {
      this.options.notes.watched.panel.add(
        `The person resized the page to ${action.width}×${action.height} (CSS pixels) in the browser panel; earlier snapshots show the old layout.`,
      );
    }
    return result;
  }
}

const PAGE_ACTION_WORDS: Record<Exclude<PageAction['action'], 'navigate' | 'resize'>, string> = {
  back: 'Going back',
  forward: 'Going forward',
  reload: 'Reloading the page',
  stop: 'Stopping the page',
  newTab: 'Opening a new tab',
  selectTab: 'Switching tabs',
  closeTab: 'Closing a tab',
};

/** The activity list's line for a navigation the person made in the panel (the row's door says it was them). */
export function pageActionTitle(action: PageAction): string {
  if (action.action === 'navigate') return `Opening ${action.url}`;
  if (action.action === 'resize') return `Resizing the page to ${action.width}×${action.height}`;
  return PAGE_ACTION_WORDS[action.action];
}

/** What a piece of the person's input is doing, for the activity list; undefined for moves and releases. */
export function personInputDoing(event: InputEvent): string | undefined {
  if (event.kind === 'wheel') return 'scrolling';
  if (event.kind !== 'mouse') return 'typing';
  if (event.action !== 'down') return undefined;
  return event.button === 'right' ? 'right-clicking' : event.clickCount > 1 ? 'double-clicking' : 'clicking';
}

const capitalized = (text: string) => `${text[0].toUpperCase()}${text.slice(1)}`;
