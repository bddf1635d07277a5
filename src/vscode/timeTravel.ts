/**
 * Time travel in VS Code: the panel's scrub (a step shown as it was), its "Continue from here", and
 * Save Session as Playwright Trace. The timeline itself is vscode-free (core/timeTravel).
 */
import * as fs from 'fs';
import * as path from 'path';
import type * as vscodeTypes from 'vscode';
import type { Supervisor } from '../core/supervision/supervisor';
import type { Timeline } from '../core/timeTravel/timeline';
import { RESTORE_OFF, restoreToStep, type RestoreOutcome } from '../core/timeTravel/stepRestore';
import { sessionTrace } from '../core/timeTravel/traceFile';
import { defaultSaveTarget, fileStamp, rememberSaveFolder, type SaveFolderMemory } from './saveFolders';
import type { Door, HostToPanel } from '../protocol/panelMessages';

type VSCode = typeof vscodeTypes;

export interface TimeTravelDeps {
  timeline: Timeline;
  supervisor: Supervisor;
  /** False over CDP (the person's own browser: its storage is not the bridge's to replace) or with time travel off. */
  canRestore(): boolean;
  browserName(): string;
  viewport(): { width: number; height: number };
  workspaceFolders(): string[];
  /** Where the last trace was saved (the next save dialog opens there). */
  saveFolders: SaveFolderMemory;
  log: vscodeTypes.LogOutputChannel;
}

export class TimeTravel {
  /** How long each scrub took, from the panel's request to its picture drawn (ms), newest last: for the bench and tests. */
  readonly scrubTimes: number[] = [];

  constructor(
    private readonly vscode: VSCode,
    private readonly deps: TimeTravelDeps,
  ) {}

  get timeline(): Timeline {
    return this.deps.timeline;
  }

  /** The panel's answer to "show this activity row's step" (null: back to live). */
  view(callId: number | null): Extract<HostToPanel, { type: 'stepView' }> {
    if (callId === null) return { type: 'stepView', view: null };
    const found = this.deps.timeline.viewOfCall(callId, this.deps.canRestore());
    return 'view' in found ? { type: 'stepView', view: found.view } : { type: 'stepView', view: null, problem: found.problem };
  }

  scrubDrawn(ms: number): void {
    this.scrubTimes.push(ms);
    if (this.scrubTimes.length > 1000) this.scrubTimes.shift();
  }

  /** A restore running now: one at a time. */
  private restoring = false;

  /** Continue from here (door `person`) or chat's bridge_restore_step (door `tool`). */
  async restore(index: number, door: Door): Promise<RestoreOutcome> {
    const refused = !this.deps.canRestore()
      ? RESTORE_OFF
      : this.restoring
        ? 'The browser is already being put back to a step: wait for it to finish.'
        : // A restore closes the tabs: not under a call that is using them.
          door === 'person' && this.deps.timeline.busy
          ? 'A chat call is using the browser right now: try again when it has finished.'
          : undefined;
    if (refused) {
      if (door === 'person') void this.vscode.window.showWarningMessage(refused);
      return { ok: false, text: refused };
    }
    this.restoring = true;
    let outcome: RestoreOutcome;
    try {
      outcome = await restoreToStep(this.deps.timeline, this.deps.supervisor, index, door);
    } finally {
      this.restoring = false;
    }
    this.deps.log.info(`Time travel: ${outcome.text}`);
    if (!outcome.ok && door === 'person') void this.vscode.window.showErrorMessage(outcome.text);
    return outcome;
  }

  /** Save Session as Playwright Trace: every kept step (or those of the activity rows given), to a .zip the person chooses. */
  async saveTrace(callIds: number[] = []): Promise<string | undefined> {
    const chosen = new Set(callIds);
    const steps = chosen.size ? this.deps.timeline.steps.filter(step => chosen.has(step.callId)) : this.deps.timeline.steps;
    if (!steps.length) {
      void this.vscode.window.showInformationMessage('There is nothing to save yet: the browser has taken no steps in this window.');
      return undefined;
    }
    const folder = this.deps.workspaceFolders()[0];
    const target = await this.vscode.window.showSaveDialog({
      title: 'Save the browser session as a Playwright trace',
      defaultUri: defaultSaveTarget(this.vscode, 'trace', `browser-session-${fileStamp()}.zip`, folder, this.deps.saveFolders),
      filters: { 'Playwright trace': ['zip'] },
    });
    if (!target) return undefined;
    const trace = sessionTrace(steps, { browserName: this.deps.browserName(), viewport: this.deps.viewport(), title: 'Playwright Bridge session' });
    await fs.promises.writeFile(target.fsPath, trace);
    await rememberSaveFolder('trace', target, this.deps.saveFolders);
    const dropped = this.deps.timeline.dropped ? ` (the oldest ${this.deps.timeline.dropped} were dropped earlier to keep the time travel budget)` : '';
    void this.vscode.window.showInformationMessage(
      `Saved ${steps.length} steps${dropped} to ${path.basename(target.fsPath)}. Open it with: npx playwright show-trace "${target.fsPath}"`,
    );
    return target.fsPath;
  }
}
