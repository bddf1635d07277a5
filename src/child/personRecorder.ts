/**
 * The person's own actions while they have control, as Playwright code: Playwright's recorder (the one
 * behind codegen and upstream's browser_start_recording) on the watched context, started when they take
 * control and stopped when they hand back. Its code joins the agent's in an exported test.
 */
import type { BrowserContext } from 'playwright-core';

/** The recorder's entry points on a context: not in Playwright's public types, present since 1.59. */
interface RecordingContext {
  _startRecording(params: { language: string }, sink: {
    actionAdded(page: unknown, action: unknown, code: string): void;
    actionUpdated(page: unknown, action: unknown, code: string): void;
    signalAdded(page: unknown, signal: unknown, code: string): void;
  }): Promise<void>;
  _stopRecording(): Promise<void>;
}

function recordable(context: BrowserContext): RecordingContext {
  const candidate = context as unknown as Partial<RecordingContext>;
  if (typeof candidate._startRecording !== 'function' || typeof candidate._stopRecording !== 'function') {
    throw new Error('This Playwright cannot record the person\'s actions (it has no recorder).');
  }
  return candidate as RecordingContext;
}

const RECORDER_SETTLE_MS = 500;

export class PersonRecorder {
  private recording: { context: RecordingContext; actions: string[] } | undefined;

  async start(context: BrowserContext): Promise<void> {
    if (this.recording) return;
    const recording = { context: recordable(context), actions: [] as string[] };
    // As upstream's own recording keeps them: a later event of the same action rewrites its code.
    await recording.context._startRecording({ language: 'playwright-test' }, {
      actionAdded: (_page, _action, code) => void recording.actions.push(code),
      actionUpdated: (_page, _action, code) => {
        if (recording.actions.length) recording.actions[recording.actions.length - 1] = code;
        else recording.actions.push(code);
      },
      signalAdded: (_page, _signal, code) => {
        if (recording.actions.length && code) recording.actions[recording.actions.length - 1] = code;
      },
    });
    this.recording = recording;
    // The recorder's script in the page asks for its mode on its own, a moment after the start resolves; input
    // before that is not seen. Half a second after Take control is not noticed by a person.
    await new Promise(resolve => setTimeout(resolve, RECORDER_SETTLE_MS));
  }

  /** The recorded statements, one per line; none when nothing was recording. */
  async stop(): Promise<string[]> {
    const recording = this.recording;
    this.recording = undefined;
    if (!recording) return [];
    await recording.context._stopRecording().catch(() => undefined);
    return recording.actions.flatMap(code => code.split('\n')).map(line => line.trim()).filter(Boolean);
  }
}
