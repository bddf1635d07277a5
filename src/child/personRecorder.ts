/**
 * The person's own actions while they have control, as Playwright code: Playwright's recorder (the one
 * behind codegen and upstream's browser_start_recording) on the watched context, started when they take
 * control and stopped when they hand back. Its code joins the agent's in an exported test.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { frameOriginsOf } from './secretSites';

/** The recorder's entry points on a context: not in Playwright's public types, present since 1.59. */
interface RecordingContext {
  _startRecording(
    params: { language: string },
    sink: {
      actionAdded(page: unknown, action: unknown, code: string): void;
      actionUpdated(page: unknown, action: unknown, code: string): void;
      signalAdded(page: unknown, signal: unknown, code: string): void;
    },
  ): Promise<void>;
  _stopRecording(): Promise<void>;
}

function recordable(context: BrowserContext): RecordingContext {
  const candidate = context as unknown as Partial<RecordingContext>;
  if (typeof candidate._startRecording !== 'function' || typeof candidate._stopRecording !== 'function') {
    throw new Error("This Playwright cannot record the person's actions (it has no recorder).");
  }
  return candidate as RecordingContext;
}

const RECORDER_SETTLE_MS = 500;

/**
 * Playwright's recorder draws its toolbar, cursor and highlights in one `x-pw-glass` element over the page. The person
 * records through the panel, whose own header is the toolbar: the recorder's would cover the page in the picture and in
 * the model's screenshots (and stays after Hand back), so every document of a recorded context hides it. A style sheet
 * adopted by the document, not an element of ours in the page's tree; recording listens on the window and needs none of it.
 */
const HIDE_RECORDER_UI = 'x-pw-glass { display: none !important; }';
/** Runs in the page (the child's own code has no DOM types): adopts the hiding sheet into the document. */
const ADOPT_HIDING_SHEET = `(() => { const sheet = new CSSStyleSheet(); sheet.replaceSync(${JSON.stringify(HIDE_RECORDER_UI)}); document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]; })()`;
const hidingContexts = new WeakSet<BrowserContext>();

async function hideRecorderUi(context: BrowserContext): Promise<void> {
  if (hidingContexts.has(context)) return;
  hidingContexts.add(context);
  await context.addInitScript({ content: ADOPT_HIDING_SHEET });
  await Promise.all(context.pages().map(page => page.evaluate(ADOPT_HIDING_SHEET).catch(() => undefined)));
}

/** What the person did, as code, and the origins of every page and frame their actions were on. */
export interface RecordedActions {
  code: string[];
  origins: string[];
}

export class PersonRecorder {
  private recording: { context: RecordingContext; actions: string[]; origins: Set<string>; lastAction?: string } | undefined;

  async start(context: BrowserContext): Promise<void> {
    if (this.recording) return;
    const recording: NonNullable<PersonRecorder['recording']> = { context: recordable(context), actions: [], origins: new Set<string>() };
    // Each action's page with all its frames, as they are when the recorder reports it: an exported test gives a
    // secret to its run only if all of these are the secret's sites (a frame of another site on the secret's page
    // could have been where the person typed it). The recorder names the frame only in the code, so every frame counts.
    const noteOrigins = (page: unknown) => {
      for (const origin of frameOriginsOf(page as Page) ?? []) recording.origins.add(origin);
    };
    await hideRecorderUi(context);
    // As upstream's own recording keeps them: a later event of the same action rewrites its code.
    await recording.context._startRecording(
      { language: 'playwright-test' },
      {
        actionAdded: (page, action, code) => {
          noteOrigins(page);
          // A click no pointer made (detail 0) right after a key press is that key's doing (Enter in a form clicks its
          // submit button): the recorded press repeats it, and a test that clicked as well would send the form twice.
          const { name, clickCount } = action as { name?: string; clickCount?: number };
          if (name === 'click' && clickCount === 0 && recording.lastAction === 'press') return;
          recording.lastAction = name;
          recording.actions.push(code);
        },
        actionUpdated: (page, _action, code) => {
          noteOrigins(page);
          if (recording.actions.length) recording.actions[recording.actions.length - 1] = code;
          else recording.actions.push(code);
        },
        signalAdded: (_page, _signal, code) => {
          if (recording.actions.length && code) recording.actions[recording.actions.length - 1] = code;
        },
      },
    );
    this.recording = recording;
    // The recorder's script in the page asks for its mode on its own, a moment after the start resolves; input
    // before that is not seen. Half a second after Take control is not noticed by a person.
    await new Promise(resolve => setTimeout(resolve, RECORDER_SETTLE_MS));
  }

  /** The recorded statements, one per line; none when nothing was recording. */
  async stop(): Promise<RecordedActions> {
    const recording = this.recording;
    this.recording = undefined;
    if (!recording) return { code: [], origins: [] };
    await recording.context._stopRecording().catch(() => undefined);
    return {
      code: recording.actions
        .flatMap(code => code.split('\n'))
        .map(line => line.trim())
        .filter(Boolean),
      origins: [...recording.origins],
    };
  }
}
