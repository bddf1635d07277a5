/**
 * Export Session as Playwright Test: the command, the panel's button and chat's bridge_export_test all
 * come here. It writes the steps as a test in the workspace (asking where the first time; `tests/` by
 * default), opens it, runs it with Playwright Test (core/testExport/specRunner.ts) with progress, and
 * shows in the Activity pane how each step fared. A test that fails is renamed `*.failing.spec.ts` at
 * once; the person may delete it instead.
 */
import * as fs from 'fs';
import * as path from 'path';
import type * as vscodeTypes from 'vscode';
import type { BrowserLaunchPlan } from '../core/settings/browserDiscovery';
import { isInside } from '../core/tools/fileTools';
import { workspaceTestFolder } from './saveFolders';
import type { BridgeSettings } from '../core/settings/settings';
import type { LiveViewStore } from '../core/liveView/liveViewStore';
import { ExportResult, stepsBetween, verifySpec, visitedOrigins, writeSpecFile } from '../core/testExport/exportSteps';
import { bridgeReaders, failingName, freePath, specFileName } from '../core/testExport/specFiles';
import { chooseRunner } from '../core/testExport/specRunner';
import type { JournalStep, StepJournal } from '../core/testExport/stepJournal';
import type { SecretEntry } from '../protocol/childMessages';
import { grantSecrets } from '../core/egress/secretGrants';

type VSCode = typeof vscodeTypes;

/** How many times the written test runs before it is called green. */
export const VERIFY_REPEATS = 3;
/** Where the person's answer to "where do tests go" is kept, per workspace. */
const FOLDER_KEY = 'playwrightBridge.exportFolder';

export interface ExportRequest {
  /** Activity rows (call ids) the person selected: the steps from the first to the last. */
  callIds?: number[];
  /** Only the last N steps. */
  lastSteps?: number;
  title?: string;
  /** From chat: where to write, relative to the workspace folder. */
  file?: string;
  /** Chat asked: no dialogs, and a red test is kept as failing without asking. */
  byModel?: boolean;
  token?: vscodeTypes.CancellationToken;
}

export interface ExportOutcome {
  ok: boolean;
  /** What happened, in words for the person or the model. */
  text: string;
  /** A test file was written (it may still fail, or its run may not have finished). */
  written: boolean;
}

export interface ExportDeps {
  journal: StepJournal;
  store: Pick<LiveViewStore, 'showExportStatus'>;
  settings(): BridgeSettings;
  /** The browser the bridge launches (the replay uses the same one). */
  browserLaunch(): BrowserLaunchPlan;
  workspaceFolders(): string[];
  secrets(): Promise<Record<string, SecretEntry>>;
  /** The extension's own storage: test runs happen there. */
  storageDir: string;
  /** The bridge's output folder: upstream's snapshots are read only there, and relative upload names resolve there. */
  outputDir(): string;
  /** The names of the person's secrets. */
  secretNames(): string[];
  /** The file of a login profile (the one `loginProfile` names), to copy next to a test on the person's word. */
  loginProfileFile(name: string): string;
  workspaceState: vscodeTypes.Memento;
  log: vscodeTypes.LogOutputChannel;
}

/** What an export would do, before it does it (chat's confirmation shows this). */
export interface ExportPlan {
  steps: JournalStep[];
  title: string;
  /** Where chat's export writes (the person's export asks). */
  file?: string;
  problem?: string;
}

/** What chat may name: a plain relative path ending in .spec.ts (its name goes into the confirmation as it is). */
const CHAT_FILE = /^[A-Za-z0-9_\-./ ]+\.spec\.ts$/;

/** True when `file` (which need not exist yet) is inside `folder`, symbolic links followed as far as they exist. */
function reallyInside(folder: string, file: string): boolean {
  let existing = file;
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  return isInside(fs.realpathSync(folder), path.join(fs.realpathSync(existing), path.relative(existing, file)));
}

/** The .gitignore the bridge writes in a logins folder: everything in it stays out of version control. */
function folderIgnoresAll(folder: string): boolean {
  try {
    return fs
      .readFileSync(path.join(folder, '.gitignore'), 'utf8')
      .split('\n')
      .some(line => line.trim() === '*');
  } catch {
    return false;
  }
}

/** `<name>.json` in the folder, or `<name>-2.json` and on when that is taken. */
function freeJson(folder: string, name: string): string {
  let candidate = path.join(folder, `${name}.json`);
  for (let n = 2; fs.existsSync(candidate); n++) candidate = path.join(folder, `${name}-${n}.json`);
  return candidate;
}

export class TestExport {
  constructor(
    private readonly vscode: VSCode,
    private readonly deps: ExportDeps,
  ) {}

  plan(request: ExportRequest): ExportPlan {
    let steps = this.deps.journal.steps.slice();
    if (request.callIds?.length) {
      const chosen = steps.filter(s => s.callId !== undefined && request.callIds!.includes(s.callId));
      steps = chosen.length ? stepsBetween(steps, chosen[0].index, chosen[chosen.length - 1].index) : [];
    }
    if (request.lastSteps) steps = steps.slice(-request.lastSteps);
    const title = request.title?.trim() || `browser session ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`;
    if (!steps.some(s => s.ok && s.answer.code.length)) {
      return {
        steps,
        title,
        problem: 'Nothing to export yet: no step since the browser started did something a test can repeat. Ask chat to use the browser, then export.',
      };
    }
    if (!request.byModel) return { steps, title };
    const folder = this.deps.workspaceFolders()[0];
    if (!folder) return { steps, title, problem: 'Open a folder first: the test is written into the workspace.' };
    if (request.file === undefined) {
      const file = freePath(this.testsFolder() ?? path.join(folder, 'tests'), specFileName(title));
      if (!reallyInside(folder, file))
        return { steps, title, problem: 'The tests folder leads outside the workspace folder (a symbolic link): name a file with file.' };
      return { steps, title, file };
    }
    if (!CHAT_FILE.test(request.file))
      return {
        steps,
        title,
        problem: 'Give file as a path inside the workspace folder made of letters, digits, -, _, . and /, ending in .spec.ts (such as tests/checkout.spec.ts).',
      };
    const file = path.resolve(folder, request.file);
    if (path.isAbsolute(request.file) || !reallyInside(folder, file)) {
      return { steps, title, problem: `"${request.file}" is outside the workspace folder: give a path inside it, such as tests/checkout.spec.ts.` };
    }
    if (fs.existsSync(file)) return { steps, title, problem: `${request.file} is there already: it is never replaced. Give another name.` };
    return { steps, title, file };
  }

  async run(request: ExportRequest): Promise<ExportOutcome> {
    const vscode = this.vscode;
    const plan = this.plan(request);
    if (plan.problem) {
      if (!request.byModel) void vscode.window.showInformationMessage(plan.problem);
      return { ok: false, written: false, text: plan.problem };
    }
    const target = plan.file ? { file: plan.file, replace: false } : await this.askWhere(plan.title);
    if (!target) return { ok: false, written: false, text: 'Export cancelled: no file chosen.' };
    const login = await this.loginCopy(target.file, request);
    let spec;
    try {
      login.write?.();
      spec = writeSpecFile(plan.steps, target.file, {
        title: plan.title,
        ...bridgeReaders(this.deps.outputDir()),
        secretNames: this.deps.secretNames(),
        replace: target.replace,
        ...(login.storageState ? { storageState: login.storageState } : {}),
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const text =
        code === 'EEXIST' ? `${this.shown(target.file)} is there already: it was not replaced.` : `The test could not be written: ${(error as Error).message}`;
      if (!request.byModel) void vscode.window.showErrorMessage(text);
      return { ok: false, written: false, text };
    }
    this.deps.log.info(`Exported ${spec.stepLines.length} steps to ${target.file}`);
    await this.open(target.file);
    let result: ExportResult | undefined;
    try {
      result = await this.verify(target.file, spec, plan.steps, request.token);
    } catch (error) {
      if (!request.byModel) void vscode.window.showErrorMessage((error as Error).message);
      return { ok: false, written: true, text: `Wrote ${this.shown(target.file)}, but ${(error as Error).message}` };
    }
    if (!result) return { ok: false, written: true, text: `Wrote ${this.shown(target.file)}; its run was cancelled, so it is not known to pass.` };
    const outcome = await this.report(result, plan.steps, request);
    return login.note ? { ...outcome, text: `${outcome.text} ${login.note}` } : outcome;
  }

  /**
   * The session started logged in from a login profile: the test can too, from a copy of it next to the test,
   * but only when the person says so (it holds their logins). Chat's export never writes one.
   */
  private async loginCopy(specFile: string, request: ExportRequest): Promise<{ storageState?: string; write?: () => void; note?: string }> {
    const name = this.deps.settings().loginProfile;
    const folder = this.deps.workspaceFolders()[0];
    if (!name || !folder) return {};
    const source = this.deps.loginProfileFile(name);
    if (!fs.existsSync(source)) return {};
    if (request.byModel) {
      return {
        note: `The session started from the login profile "${name}"; the test starts logged out (export from the panel to write a copy of the profile beside it).`,
      };
    }
    const auth = path.join(path.dirname(specFile), '.auth');
    // A folder the workspace brought (a link elsewhere, or one whose .gitignore is not ours) does not get the person's logins.
    if (fs.existsSync(auth) && (fs.lstatSync(auth).isSymbolicLink() || !folderIgnoresAll(auth) || !reallyInside(folder, auth))) {
      return { note: `The test starts logged out: ${this.shown(auth)} is not a folder the bridge made for logins, so no copy of "${name}" was written there.` };
    }
    // Never an existing file: one there (from an earlier export, or planted) is left alone.
    const copy = freeJson(auth, name);
    const write = 'Write a Copy';
    const answer = await this.vscode.window.showInformationMessage(
      `This session started logged in from the login profile "${name}". Write a copy of its cookies and storage to ${this.shown(copy)} so the test starts logged in too? ` +
        'It holds your logins: the folder gets a .gitignore so it stays out of version control.',
      { modal: true },
      write,
    );
    if (answer !== write) return { note: `The test starts logged out (no copy of the login profile "${name}" was written).` };
    return {
      storageState: path.relative(folder, copy).split(path.sep).join('/'),
      write: () => {
        fs.mkdirSync(auth, { recursive: true, mode: 0o700 });
        if (!fs.existsSync(path.join(auth, '.gitignore'))) fs.writeFileSync(path.join(auth, '.gitignore'), '*\n', { flag: 'wx' });
        fs.copyFileSync(source, copy, fs.constants.COPYFILE_EXCL);
        fs.chmodSync(copy, 0o600);
      },
    };
  }

  /** The folder `testExport.folder` names, when it is set and inside the workspace folder. */
  private testsFolder(): string | undefined {
    const folder = this.deps.workspaceFolders()[0];
    const setting = this.deps.settings().testExportFolder;
    if (!folder || !setting) return undefined;
    const resolved = path.resolve(folder, setting);
    if (!reallyInside(folder, resolved)) {
      this.deps.log.warn(`playwrightBridge.testExport.folder "${setting}" is outside the workspace folder: not used.`);
      return undefined;
    }
    return resolved;
  }

  /** The folder the setting names; else the first time a save dialog (in the workspace's test folder if it has one), then that folder again. */
  private async askWhere(title: string): Promise<{ file: string; replace: boolean } | undefined> {
    const folder = this.deps.workspaceFolders()[0];
    const configured = this.testsFolder();
    if (configured) return { file: freePath(configured, specFileName(title)), replace: false };
    const remembered = this.deps.workspaceState.get<string>(FOLDER_KEY);
    if (remembered && fs.existsSync(remembered)) return { file: freePath(remembered, specFileName(title)), replace: false };
    const uri = await this.vscode.window.showSaveDialog({
      title: 'Save the browser session as a Playwright test',
      saveLabel: 'Export',
      defaultUri: folder ? this.vscode.Uri.file(path.join(workspaceTestFolder(folder) ?? folder, specFileName(title))) : undefined,
      filters: { 'Playwright test': ['ts', 'js'] },
    });
    if (!uri) return undefined;
    await this.deps.workspaceState.update(FOLDER_KEY, path.dirname(uri.fsPath));
    // The dialog itself asked before replacing a file.
    return { file: uri.fsPath, replace: true };
  }

  private async verify(
    file: string,
    spec: ExportResult['spec'],
    steps: JournalStep[],
    token?: vscodeTypes.CancellationToken,
  ): Promise<ExportResult | undefined> {
    const vscode = this.vscode;
    const runner = chooseRunner(this.deps.workspaceFolders()[0], vscode.workspace.isTrusted);
    const launch = this.deps.browserLaunch();
    const { env, withheld } = await this.secretsFor(spec.env, visitedOrigins(steps, spec));
    const where = runner.kind === 'workspace' ? "the workspace's Playwright Test" : "the bridge's own Playwright Test";
    this.deps.store.showExportStatus({ state: 'running', text: `${this.shown(file)}: running ${VERIFY_REPEATS} times with ${where}…`, marks: [] });
    const controller = new AbortController();
    const outside = token?.onCancellationRequested(() => controller.abort());
    try {
      return await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Playwright Bridge', cancellable: true },
        async (progress, cancel) => {
          cancel.onCancellationRequested(() => controller.abort());
          progress.report({
            message: `running ${this.shown(file)} ${VERIFY_REPEATS} times with ${where}, headless${withheld.length ? ` (without ${withheld.join(', ')})` : ''}…`,
          });
          const result = await verifySpec(file, spec, {
            runner,
            workDir: path.join(this.deps.storageDir, 'test-runs'),
            ...(launch.executablePath ? { executablePath: launch.executablePath } : {}),
            ...(launch.channel ? { channel: launch.channel } : {}),
            browser: launch.engine,
            repeatEach: VERIFY_REPEATS,
            env,
            // Where a person runs `npx playwright test`: paths in the test (a login profile's copy) resolve there.
            ...(this.deps.workspaceFolders()[0] ? { cwd: this.deps.workspaceFolders()[0] } : {}),
            signal: controller.signal,
            timeoutMs: 10 * 60_000,
          });
          return controller.signal.aborted ? undefined : result;
        },
      );
    } catch (error) {
      const text = `${this.shown(file)} could not be run: ${(error as Error).message}`;
      this.deps.store.showExportStatus({ state: 'error', text, marks: [] });
      throw new Error(text, { cause: error });
    } finally {
      outside?.dispose();
    }
  }

  /** A secret goes to the run only when every site the test visits is one of its sites (the egress gate's rule). */
  private async secretsFor(names: string[], origins: string[]): Promise<{ env: Record<string, string>; withheld: string[] }> {
    if (!names.length) return { env: {}, withheld: [] };
    return grantSecrets(names, origins, await this.deps.secrets());
  }

  private async report(result: ExportResult, steps: JournalStep[], request: ExportRequest): Promise<ExportOutcome> {
    const vscode = this.vscode;
    const callOf = new Map(steps.map(s => [s.index, s.callId]));
    const marks = result.verdicts.flatMap(v => (callOf.get(v.step) === undefined ? [] : [{ callId: callOf.get(v.step)!, verdict: v.verdict }]));
    const left = result.spec.leftOut.length
      ? ` Left out: ${result.spec.leftOut.length} step${result.spec.leftOut.length === 1 ? '' : 's'} (reads, failures, the bridge's own tools).`
      : '';
    const needs = (result.spec.env.length ? ` It reads ${result.spec.env.join(', ')} from the environment.` : '') + withoutPlaywrightTest(result.file);
    if (result.run.failed === 0) {
      const text = `${this.shown(result.file)}: passed ${result.run.passed} of ${result.run.runs} runs with Playwright Test.`;
      this.deps.store.showExportStatus({ state: 'passed', text, marks });
      if (!request.byModel) void vscode.window.showInformationMessage(`Exported ${result.spec.stepLines.length} steps. ${text}${needs}`);
      return { ok: true, written: true, text: `Wrote ${this.shown(result.file)} (${result.spec.stepLines.length} steps).${left} ${text}${needs}` };
    }
    // Never left under a passing name: renamed now, deleted if the person says so.
    const failing = failingName(result.file);
    const renamed = !fs.existsSync(failing) && (await this.rename(result.file, failing));
    const file = renamed ? failing : result.file;
    const step = result.failedStep === undefined ? undefined : steps.find(s => s.index === result.failedStep);
    const where = result.run.firstFailure?.line ? `at line ${result.run.firstFailure.line}${step ? ` (step ${step.index}, ${step.tool})` : ''}` : '';
    const why = (result.run.firstFailure?.message ?? 'failed').split('\n').find(line => line.trim()) ?? 'failed';
    const text = `${this.shown(file)}: failed ${result.run.failed} of ${result.run.runs} runs ${where}: ${why}`;
    this.deps.store.showExportStatus({ state: 'failed', text, marks });
    if (result.run.firstFailure?.line) await this.reveal(file, result.run.firstFailure.line);
    if (!request.byModel) {
      void vscode.window.showWarningMessage(text, 'Keep it', 'Delete it').then(async choice => {
        if (choice !== 'Delete it') return;
        const edit = new vscode.WorkspaceEdit();
        edit.deleteFile(vscode.Uri.file(file), { ignoreIfNotExists: true });
        await vscode.workspace.applyEdit(edit);
        this.deps.store.showExportStatus({ state: 'failed', text: `${this.shown(file)} deleted (it failed ${where}).`, marks });
      });
    }
    return { ok: false, written: true, text: `Wrote ${this.shown(file)} (${result.spec.stepLines.length} steps).${left} ${text}${needs}` };
  }

  private async rename(from: string, to: string): Promise<boolean> {
    const edit = new this.vscode.WorkspaceEdit();
    edit.renameFile(this.vscode.Uri.file(from), this.vscode.Uri.file(to), { overwrite: false });
    return this.vscode.workspace.applyEdit(edit);
  }

  /** Beside the editor in front (the browser panel, when it is an editor tab), so the session and its test show together. */
  private open(file: string): Thenable<vscodeTypes.TextEditor> {
    const shown = this.vscode.window.visibleTextEditors.find(editor => editor.document.uri.fsPath === file);
    return this.vscode.window.showTextDocument(this.vscode.Uri.file(file), {
      preview: false,
      preserveFocus: true,
      viewColumn: shown?.viewColumn ?? this.vscode.ViewColumn.Beside,
    });
  }

  private async reveal(file: string, line: number): Promise<void> {
    const editor = await this.open(file);
    const position = new this.vscode.Position(Math.max(0, line - 1), 0);
    editor.selection = new this.vscode.Selection(position, position);
    editor.revealRange(new this.vscode.Range(position, position), this.vscode.TextEditorRevealType.InCenter);
  }

  /** A file as the person knows it: relative to the workspace folder when inside it. */
  shown(file: string): string {
    const folder = this.deps.workspaceFolders().find(f => !path.relative(f, file).startsWith('..'));
    return folder ? path.relative(folder, file).split(path.sep).join('/') : file;
  }
}

/**
 * The test imports @playwright/test; a workspace without it gets red squiggles under that import, though the
 * bridge ran the test with its own copy. Said, with the one command that installs it, rather than left unexplained.
 */
export function withoutPlaywrightTest(file: string): string {
  try {
    require.resolve('@playwright/test/package.json', { paths: [path.dirname(file)] });
    return '';
  } catch {
    return " This workspace has no @playwright/test, so the editor marks the test's import: `npm i -D @playwright/test` installs it (the bridge ran the test with its own).";
  }
}
