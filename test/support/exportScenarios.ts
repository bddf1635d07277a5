/**
 * Scripted sessions over the export apps (test/fixtures/exportApps.ts), as an agent would play them:
 * navigate, read the snapshot, act on refs taken from it, read again. The export tests and the bench's
 * testExport play them through a real bridge and turn each into a Playwright test.
 */
import { CONTACT_SPOTS, COUNTER_SPOTS, ExportApps } from '../fixtures/exportApps';
import { refOf } from './realBridge';
import type { Supervisor } from '../../src/core/supervision/supervisor';
import { DEFAULT_SETTINGS } from '../../src/core/settings/settings';
import type { PageAction } from '../../src/protocol/childMessages';
import { waitFor } from './realBridge';

/** Calls a tool; returns the answer's text, and throws when the call failed (a scripted session never expects that). */
export type ScenarioCall = (tool: string, args: Record<string, unknown>) => Promise<string>;

/** The person at the panel, as the bench and tests play them: control taken and handed back, clicks and typing on the picture. */
export interface PersonHands {
  /** Resolves once the person's actions are recorded: a hand rests on the picture for longer than that before it clicks. */
  takeControl(): Promise<void>;
  /** A click at a point of the page, in CSS pixels: the pointer comes there first and rests a moment, as a hand does. */
  click(at: { x: number; y: number }): Promise<void>;
  type(text: string): void;
  /** A key pressed and released, by its DOM name ("Enter"). */
  press(key: string): void;
  handBack(): Promise<void>;
  /** The panel header's own actions (the address bar, back, reload), as its buttons send them; throws when one fails. */
  header(action: PageAction): Promise<void>;
  /** Resolves once the watched tab is at this address (the person waits for the page, as a person looks at it). */
  seesAddress(url: string): Promise<void>;
}

export interface ExportScenario {
  name: string;
  play(call: ScenarioCall, apps: ExportApps, files: { upload: string }, person: PersonHands): Promise<void>;
}

/** Navigate, then read the page as an agent does before acting. */
async function open(call: ScenarioCall, url: string): Promise<string> {
  await call('browser_navigate', { url });
  return call('browser_snapshot', {});
}

export const EXPORT_SCENARIOS: ExportScenario[] = [
  {
    name: 'todo app',
    async play(call, apps) {
      const page = await open(call, `${apps.url}/todo`);
      await call('browser_type', { element: 'new todo', target: refOf(page, /textbox "What needs to be done\?"/), text: 'Buy milk' });
      await call('browser_click', { element: 'Add', target: refOf(page, /button "Add"/) });
      await call('browser_snapshot', {});
    },
  },
  {
    name: 'login with a secret',
    async play(call, apps) {
      const page = await open(call, `${apps.url}/login`);
      await call('browser_type', { element: 'Username', target: refOf(page, /textbox "Username"/), text: 'ada' });
      await call('browser_type', { element: 'Password', target: refOf(page, /textbox "Password"/), text: 'APP_PASSWORD' });
      await call('browser_click', { element: 'Sign in', target: refOf(page, /button "Sign in"/) });
      await call('browser_snapshot', {});
    },
  },
  {
    name: 'SPA routes',
    async play(call, apps) {
      const page = await open(call, `${apps.url}/spa`);
      await call('browser_click', { element: 'About', target: refOf(page, /link "About"/) });
      await call('browser_snapshot', {});
    },
  },
  {
    name: 'form in an iframe',
    async play(call, apps) {
      const page = await open(call, `${apps.url}/frame`);
      await call('browser_type', { element: 'Email', target: refOf(page, /textbox "Email"/), text: 'ada@example.test' });
      await call('browser_click', { element: 'Subscribe', target: refOf(page, /button "Subscribe"/) });
      await call('browser_verify_text_visible', { text: 'Subscribed ada@example.test' });
    },
  },
  {
    name: 'confirm dialog',
    async play(call, apps) {
      const page = await open(call, `${apps.url}/dialog`);
      await call('browser_click', { element: 'Delete', target: refOf(page, /button "Delete"/) });
      await call('browser_handle_dialog', { accept: true });
      await call('browser_snapshot', {});
    },
  },
  {
    name: 'file upload',
    async play(call, apps, files) {
      const page = await open(call, `${apps.url}/upload`);
      await call('browser_click', { element: 'Attachment', target: refOf(page, /button "Attachment"/) });
      await call('browser_file_upload', { paths: [files.upload] });
      await call('browser_click', { element: 'Send', target: refOf(page, /button "Send"/) });
      await call('browser_wait_for', { text: 'hello upload' });
      await call('browser_snapshot', {});
    },
  },
  {
    name: 'content after a delay',
    async play(call, apps) {
      const page = await open(call, `${apps.url}/delayed`);
      await call('browser_click', { element: 'Load reports', target: refOf(page, /button "Load reports"/) });
      await call('browser_wait_for', { text: 'Loaded 3 reports' });
      await call('browser_snapshot', {});
    },
  },
  {
    name: 'second tab',
    async play(call, apps) {
      const page = await open(call, `${apps.url}/tabs`);
      await call('browser_click', { element: 'Open item', target: refOf(page, /link "Open item"/) });
      await call('browser_tabs', { action: 'select', index: 1 });
      const item = await call('browser_snapshot', {});
      await call('browser_click', { element: 'Add to cart', target: refOf(item, /button "Add to cart"/) });
      await call('browser_snapshot', {});
    },
  },
  {
    // A named context (isolatedContext): its own cookies, so the account page there is signed out while the first tab is signed in.
    name: 'isolated context',
    async play(call, apps) {
      apps.password = 'open-sesame';
      const page = await open(call, `${apps.url}/login`);
      await call('browser_type', { element: 'Username', target: refOf(page, /textbox "Username"/), text: 'ada' });
      await call('browser_type', { element: 'Password', target: refOf(page, /textbox "Password"/), text: 'open-sesame' });
      await call('browser_click', { element: 'Sign in', target: refOf(page, /button "Sign in"/) });
      await call('browser_tabs', { action: 'new', url: `${apps.url}/account`, isolatedContext: 'guest' });
      const guest = await call('browser_snapshot', {});
      // Only a signed-out page has this link: in a context that shared the first tab's login the click finds nothing.
      await call('browser_click', { element: 'Go to sign in', target: refOf(guest, /link "Go to sign in"/) });
      await call('browser_tabs', { action: 'select', index: 0 });
      await call('browser_navigate', { url: `${apps.url}/account` });
      await call('browser_snapshot', {});
    },
  },
  {
    name: 'select and checkbox',
    async play(call, apps) {
      const page = await open(call, `${apps.url}/choose`);
      await call('browser_select_option', { element: 'Color', target: refOf(page, /combobox "Color"/), values: ['Green'] });
      await call('browser_click', { element: 'Subscribe', target: refOf(page, /checkbox "Subscribe"/) });
      await call('browser_click', { element: 'Save', target: refOf(page, /button "Save"/) });
      await call('browser_snapshot', {});
    },
  },
  {
    name: 'drag and drop',
    async play(call, apps) {
      const page = await open(call, `${apps.url}/drag`);
      await call('browser_drag', {
        startElement: 'Write report',
        startTarget: refOf(page, /Write report/),
        endElement: 'Done column',
        endTarget: refOf(page, /heading "Done column"/),
      });
      await call('browser_snapshot', {});
    },
  },
  {
    name: 'network-driven list',
    async play(call, apps) {
      const page = await open(call, `${apps.url}/feed`);
      await call('browser_click', { element: 'Refresh', target: refOf(page, /button "Refresh"/) });
      await call('browser_wait_for', { text: 'Second post' });
      await call('browser_snapshot', {});
    },
  },
  {
    name: 'the person takes control for two steps',
    async play(call, apps, _files, person) {
      await open(call, `${apps.url}/counter`);
      await person.takeControl();
      await person.click(COUNTER_SPOTS.increment);
      await person.click(COUNTER_SPOTS.note);
      person.type('from the person');
      await person.handBack();
      const page = await call('browser_snapshot', {});
      await call('browser_click', { element: 'Save note', target: refOf(page, /button "Save note"/) });
      await call('browser_snapshot', {});
    },
  },
  {
    // The person alone at the panel (bench panel.exportReplaysPerson): an address typed, a form sent with Enter, back and reload.
    name: 'the person alone at the panel',
    async play(_call, apps, _files, person) {
      await person.header({ action: 'navigate', url: `${apps.url}/contact` });
      await person.takeControl();
      await person.click(CONTACT_SPOTS.name);
      person.type('Ada');
      person.press('Enter');
      await person.seesAddress(`${apps.url}/thanks?name=Ada`);
      await person.handBack();
      await person.header({ action: 'navigate', url: `${apps.url}/counter` });
      await person.header({ action: 'back' });
      await person.seesAddress(`${apps.url}/thanks?name=Ada`);
      await person.header({ action: 'reload' });
    },
  },
];

/** The person's hands on a real bridge's panel: its supervisor's take control, input and hand back. */
export function personHandsOn(supervisor: Supervisor, viewport = DEFAULT_SETTINGS.viewport): PersonHands {
  let address = '';
  supervisor.onObservation(event => {
    if (event.kind === 'tabs') address = event.tabs.find(tab => tab.current)?.url ?? address;
  });
  return {
    header: async action => {
      const result = await supervisor.pageAction(action);
      if (!result.ok) throw new Error(`${action.action}: ${result.message}`);
    },
    seesAddress: url =>
      waitFor(
        () => address === url,
        30_000,
        () => `the page at ${url} (it is at ${address})`,
      ),
    takeControl: () => supervisor.takeControl(),
    click: async at => {
      const point = { x: at.x / viewport.width, y: at.y / viewport.height };
      supervisor.sendInput({ kind: 'mouse', action: 'move', ...point, button: 'left', clickCount: 1 });
      // Playwright's recorder names the element under the pointer when it arrives; a click before that is not recorded.
      await new Promise(resolve => setTimeout(resolve, 200));
      for (const action of ['down', 'up'] as const) supervisor.sendInput({ kind: 'mouse', action, ...point, button: 'left', clickCount: 1 });
    },
    type: text => supervisor.sendInput({ kind: 'text', text }),
    press: key => {
      for (const action of ['down', 'up'] as const) supervisor.sendInput({ kind: 'key', action, key, modifiers: [] });
    },
    handBack: () => supervisor.handBack(),
  };
}
