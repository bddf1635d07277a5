/**
 * A small stand-in for the `vscode` module, for plain-Node tests of the glue (which gets `vscode`
 * injected). It implements what the glue uses and records what the glue did: messages shown,
 * commands run, status bar text, registered tools and providers, settings written. Behaviour that
 * depends on the real workbench is tested in the real-VS-Code suite instead.
 */
import * as path from 'path';

type Listener<T> = (value: T) => unknown;

export class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  readonly event = (listener: Listener<T>) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly fsPath: string,
    private readonly text: string,
  ) {}
  static file(p: string): Uri {
    return new Uri('file', p, `file://${p}`);
  }
  static parse(text: string): Uri {
    const scheme = /^([a-z][\w+.-]*):/i.exec(text)?.[1] ?? 'file';
    return new Uri(scheme, scheme === 'file' ? text.replace(/^file:\/\//, '') : text, text);
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return Uri.file(path.join(base.fsPath, ...parts));
  }
  toString(): string {
    return this.text;
  }
}

export class MarkdownString {
  constructor(readonly value: string) {}
}

export class LanguageModelTextPart {
  constructor(readonly value: string) {}
}

export class LanguageModelDataPart {
  constructor(
    readonly data: Uint8Array,
    readonly mimeType: string,
  ) {}
  static image(data: Uint8Array, mimeType: string): LanguageModelDataPart {
    return new LanguageModelDataPart(data, mimeType);
  }
}

export class LanguageModelToolResult {
  constructor(readonly content: unknown[]) {}
}

export class CancellationError extends Error {}

export class McpHttpServerDefinition {
  constructor(
    readonly label: string,
    public uri: Uri,
    public headers: Record<string, string>,
    readonly version?: string,
  ) {}
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export const StatusBarAlignment = { Left: 1, Right: 2 };
export const ProgressLocation = { SourceControl: 1, Window: 10, Notification: 15 };
export const ViewColumn = { Active: -1, Beside: -2, One: 1 };
export const ConfigurationTarget = { Global: 1, Workspace: 2, WorkspaceFolder: 3 };

/** A cancellation token source whose token the test can cancel. */
export class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  private cancelled = false;
  readonly token: { readonly isCancellationRequested: boolean; onCancellationRequested: EventEmitter<void>['event'] };
  constructor() {
    const isCancelled = () => this.cancelled;
    this.token = {
      get isCancellationRequested() {
        return isCancelled();
      },
      onCancellationRequested: this.emitter.event,
    };
  }
  cancel(): void {
    this.cancelled = true;
    this.emitter.fire();
  }
}

export interface ShownMessage {
  level: 'info' | 'warning' | 'error';
  message: string;
  items: unknown[];
}

export interface FakeStatusBarItem {
  id: string;
  text: string;
  tooltip: unknown;
  command: unknown;
  backgroundColor: unknown;
  accessibilityInformation: unknown;
  shown: boolean;
  show(): void;
  hide(): void;
  dispose(): void;
}

/** The fake module and its records. `answers` picks the button a message "clicks" (by its text). */
export function createFakeVscode(
  options: {
    settings?: Record<string, unknown>;
    workspaceSettings?: Record<string, unknown>;
    folderSettings?: Record<string, unknown>;
    workspaceFolders?: string[];
  } = {},
) {
  const userSettings: Record<string, unknown> = { ...options.settings };
  const workspaceSettings: Record<string, unknown> = { ...options.workspaceSettings };
  // A workspace folder's own .vscode/settings.json (a multi-root workspace): VS Code's `workspaceFolderValue`.
  const folderSettings: Record<string, unknown> = { ...options.folderSettings };
  const configurationChanged = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();
  const shown: ShownMessage[] = [];
  const executed: { command: string; args: unknown[] }[] = [];
  const commands = new Map<string, (...args: unknown[]) => unknown>();
  const tools = new Map<string, unknown>();
  const providers = new Map<string, unknown>();
  const statusBarItems: FakeStatusBarItem[] = [];
  const clipboard: string[] = [];
  /** What env.openExternal opened, in the person's browser. */
  const openedExternally: string[] = [];
  let answer: (message: string, items: unknown[]) => unknown = () => undefined;
  const answers: (string | undefined)[] = [];
  const inputs: { title?: string; password: boolean; problem: string | undefined; items?: string[] }[] = [];
  const logLines: string[] = [];
  const viewProviders = new Map<string, unknown>();

  const show =
    (level: ShownMessage['level']) =>
    async (message: string, ...rest: unknown[]) => {
      const items = rest.filter(item => typeof item === 'string' || (typeof item === 'object' && item !== null && 'title' in item));
      shown.push({ level, message, items });
      return answer(message, items);
    };

  const vscode = {
    EventEmitter,
    Uri,
    MarkdownString,
    LanguageModelTextPart,
    LanguageModelDataPart,
    LanguageModelToolResult,
    CancellationError,
    McpHttpServerDefinition,
    ThemeColor,
    StatusBarAlignment,
    ProgressLocation,
    ViewColumn,
    ConfigurationTarget,
    workspace: {
      workspaceFolders: (options.workspaceFolders ?? []).map((folder, index) => ({ uri: Uri.file(folder), name: path.basename(folder), index })),
      getConfiguration: (section: string) => {
        const key = (k: string) => `${section}.${k}`;
        return {
          get: (k: string, fallback?: unknown) => folderSettings[key(k)] ?? workspaceSettings[key(k)] ?? userSettings[key(k)] ?? fallback,
          inspect: (k: string) => ({
            key: key(k),
            globalValue: userSettings[key(k)],
            workspaceValue: workspaceSettings[key(k)],
            workspaceFolderValue: folderSettings[key(k)],
          }),
          update: async (k: string, value: unknown, target?: number) => {
            const store =
              target === ConfigurationTarget.Global ? userSettings : target === ConfigurationTarget.WorkspaceFolder ? folderSettings : workspaceSettings;
            if (value === undefined) delete store[key(k)];
            else store[key(k)] = value;
            configurationChanged.fire({ affectsConfiguration: (s: string) => key(k) === s || key(k).startsWith(`${s}.`) });
          },
        };
      },
      onDidChangeConfiguration: configurationChanged.event,
    },
    window: {
      showInformationMessage: show('info'),
      showWarningMessage: show('warning'),
      // Input boxes and quick picks take the next queued answer; `inputs` records what each asked.
      showInputBox: async (options: { validateInput?: (text: string) => string | undefined; password?: boolean; title?: string }) => {
        const answer = answers.shift();
        inputs.push({ title: options.title, password: !!options.password, problem: typeof answer === 'string' ? options.validateInput?.(answer) : undefined });
        return answer;
      },
      showQuickPick: async (items: (string | { label: string })[], options: { title?: string }) => {
        const labels = items.map(item => (typeof item === 'string' ? item : item.label));
        inputs.push({ title: options.title, password: false, problem: undefined, items: labels });
        // As VS Code does: the chosen item itself (an object for object items), found by its label.
        const answer = answers.shift();
        const index = typeof answer === 'string' ? labels.indexOf(answer) : -1;
        return index >= 0 ? items[index] : answer;
      },
      showErrorMessage: show('error'),
      withProgress: async <R>(_options: unknown, task: (progress: { report(value: unknown): void }, token: CancellationTokenSource['token']) => Promise<R>) =>
        task({ report: () => undefined }, new CancellationTokenSource().token),
      // The log channel: what is written is kept, in order, as "level: text".
      createOutputChannel: () => {
        const write = (level: string) => (message: unknown) => void logLines.push(`${level}: ${message instanceof Error ? message.message : String(message)}`);
        return {
          info: write('info'),
          warn: write('warn'),
          error: write('error'),
          debug: write('debug'),
          trace: write('trace'),
          show: () => undefined,
          dispose: () => undefined,
        };
      },
      registerWebviewViewProvider: (id: string, provider: unknown) => {
        viewProviders.set(id, provider);
        return { dispose: () => viewProviders.delete(id) };
      },
      createStatusBarItem: (id: string) => {
        const item: FakeStatusBarItem = {
          id,
          text: '',
          tooltip: undefined,
          command: undefined,
          backgroundColor: undefined,
          accessibilityInformation: undefined,
          shown: false,
          show() {
            this.shown = true;
          },
          hide() {
            this.shown = false;
          },
          dispose() {
            this.shown = false;
          },
        };
        statusBarItems.push(item);
        return item;
      },
    },
    commands: {
      registerCommand: (id: string, run: (...args: unknown[]) => unknown) => {
        commands.set(id, run);
        return { dispose: () => commands.delete(id) };
      },
      executeCommand: async (command: string, ...args: unknown[]) => {
        executed.push({ command, args });
        return commands.get(command)?.(...args);
      },
    },
    lm: {
      registerTool: (name: string, tool: unknown) => {
        tools.set(name, tool);
        return { dispose: () => tools.delete(name) };
      },
      registerMcpServerDefinitionProvider: (id: string, provider: unknown) => {
        providers.set(id, provider);
        return { dispose: () => providers.delete(id) };
      },
    },
    env: {
      clipboard: { writeText: async (text: string) => void clipboard.push(text) },
      openExternal: async (uri: Uri) => (openedExternally.push(uri.toString()), true),
    },
  };

  return {
    /** Pass this where the glue takes `typeof vscode`. */
    vscode: vscode as unknown as typeof import('vscode'),
    shown,
    executed,
    commands,
    tools,
    providers,
    viewProviders,
    statusBarItems,
    clipboard,
    openedExternally,
    userSettings,
    workspaceSettings,
    folderSettings,
    answers,
    inputs,
    logLines,
    /** Which button each message "clicks": return its text (or undefined to dismiss it). */
    answerWith(pick: (message: string, items: unknown[]) => unknown) {
      answer = pick;
    },
  };
}
