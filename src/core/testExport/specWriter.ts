/**
 * A Playwright test from the steps of a session: the code upstream ran for each successful step, in
 * order, made to stand on its own.
 *
 * - Left out: failed steps, pure reads (snapshots, screenshots, console, network), the bridge's own tools,
 *   and fixed waits (a test waits by its assertions).
 * - Put in: a dialog's answer before the step that opened it (Playwright dismisses dialogs nobody
 *   handles); a file chooser awaited around the step that opened it, with the chosen files' bytes; a tab
 *   opened by a step awaited as a popup, and later steps on whichever tab was current; an address check
 *   after a step that moved the page; at the end, checks of what the page last showed (finalChecks.ts).
 * - Upstream's code goes in only when every line is a plain Playwright statement (codeCheck.ts): the
 *   answers carry text the page chose, and the test runs in Node. Text we write ourselves is quoted.
 * - A loopback origin becomes `baseURL` (overridable with BASE_URL). Secrets stay `process.env['NAME']`,
 *   as upstream writes them: never their values.
 */
import { checkPlaywrightLine } from './codeCheck';
import { finalChecks } from './finalChecks';
import { addressFor, onPage, quote } from './pageCode';
import { writePersonPageStep } from './personPageSteps';
import type { JournalStep } from './stepJournal';
import { PERSON_ACTIONS, PERSON_PAGE_ACTION } from '../supervision/activityLog';
import { ExportAs, toolRecord } from '../tools/toolRegistry';
import type { StepWriting } from '../tools/stepWriting';
import { QUOTED_SECRET_PLACEHOLDER } from '../../protocol/childMessages';

export interface UploadFile {
  name: string;
  mimeType: string;
  /** The bytes, base64; undefined when the file is too big to put in the test (its absolute path is used). */
  base64?: string;
  /** Where it was read, resolved as the upload resolved it. */
  absolutePath: string;
}

export interface SpecOptions {
  title: string;
  /** A copy of the login profile the session started from, relative to where the tests run (the workspace folder). */
  storageState?: string;
  /** The text of a snapshot upstream wrote to a file; undefined when it is gone. */
  readSnapshot(file: string): string | undefined;
  /** A file a step uploaded (its path as the agent gave it), to put in the test; undefined when it cannot be read. */
  readUpload(path: string): UploadFile | undefined;
  /** The bridge's secret names: a masked secret in the person's recorded typing becomes one of these, no other. */
  secretNames?: readonly string[];
}

export interface WrittenSpec {
  text: string;
  /** Which lines of `text` (1-based, inclusive) each step put in: to show a failing line as a step. */
  stepLines: { step: number; tool: string; from: number; to: number }[];
  /** Environment variables the test reads (secrets). */
  env: string[];
  baseURL?: string;
  /** Steps that left nothing, and why, by step index. */
  leftOut: { step: number; tool: string; why: string }[];
}

/**
 * What the export makes of a tool's step is its `exportAs` trait (core/tools/toolRegistry.ts): only actions
 * and checks (`code`) have their answer's code block taken, because their answers carry no text of the page's
 * before it; any other tool's answer (evaluate, run-code, a page's own WebMCP tools) may start with text the
 * page chose, which could pose as a code block. A tool the registry does not know is `none`.
 */
function exportAs(tool: string): ExportAs {
  return toolRecord(tool)?.exportAs ?? 'none';
}

/**
 * A DevTools step (a trace, an audit, emulation) as the test's comment: what was measured or set there, in the
 * words the activity list used. A line comment on one line: the agent's arguments cannot end it early.
 */
function measuredHere(step: JournalStep): string {
  const words = toolRecord(step.tool)?.says?.(step.args) ?? step.tool;
  return `// Playwright Bridge: ${words.replace(/[\r\n\u2028\u2029]+/g, ' ')} (${step.tool}; not repeated by the test)`;
}

/** A step that only reads: left out, and not "the next step" that answers a dialog or a file chooser. */
function onlyReads(tool: string): boolean {
  const kind = exportAs(tool);
  return kind === 'reads' || kind === 'readsWhere';
}

const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;

function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? undefined : parsed.origin;
  } catch {
    return undefined;
  }
}

/**
 * A secret the person typed while they had control comes back masked as '<secret>NAME</secret>' (the child
 * masks every text): in the test it is read from the environment, like the agent's.
 */
function unmaskPersonSecrets(step: JournalStep, secretNames: readonly string[]): JournalStep {
  if (step.tool !== PERSON_ACTIONS) return step;
  const code = step.answer.code.map(line =>
    line.replace(QUOTED_SECRET_PLACEHOLDER, (all, name: string) => (secretNames.includes(name) ? `process.env['${name}']` : all)),
  );
  return { ...step, answer: { ...step.answer, code } };
}

/** A step as far as the test may believe it: only the answers of `code`, `written` and `readsWhere` tools are read at all. */
function believed(step: JournalStep): JournalStep {
  if (['code', 'written', 'readsWhere'].includes(exportAs(step.tool)) || step.tool === PERSON_ACTIONS) return step;
  return { ...step, answer: { code: [] } };
}

/** The environment variables a step's code reads, as its statements parse. */
function secretsNamedBy(step: JournalStep): string[] {
  return step.answer.code.flatMap(line => checkPlaywrightLine(line).env);
}

function argsMention(args: Record<string, unknown>, name: string): boolean {
  return Object.values(args).some(value => value === name || (Array.isArray(value) && value.includes(name)));
}

export function writeSpec(journalSteps: readonly JournalStep[], options: SpecOptions): WrittenSpec {
  const steps = journalSteps.map(step => believed(unmaskPersonSecrets(step, options.secretNames ?? [])));
  const leftOut: WrittenSpec['leftOut'] = [];
  // The agent's or the person's (the address bar) first navigation to an address.
  const firstGoto = steps.find(s => s.ok && (toolRecord(s.tool)?.navigates || s.tool === PERSON_PAGE_ACTION) && typeof s.args.url === 'string');
  const firstOrigin = firstGoto ? originOf(firstGoto.args.url as string) : undefined;
  const baseURL = firstOrigin && LOOPBACK.test(firstOrigin) ? firstOrigin : undefined;

  const body: string[] = [];
  const stepLines: WrittenSpec['stepLines'] = [];
  // Tabs by upstream's index -> the variable that holds that page in the test.
  let tabs: string[] = ['page'];
  let current = 0;
  let popups = 0;
  let choosers = 0;
  let usesContext = false;
  // The contexts the agent named (isolatedContext) -> their variables in the test, opened from its browser.
  const namedContexts = new Map<string, string>();
  const urlOf = new Map<string, string | undefined>([['page', undefined]]);
  // The first snapshot of each tab after its last navigation, for the final checks.
  const firstSnapshot = new Map<string, string | undefined>();
  let lastSnapshot: { page: string; text: string } | undefined;
  const snapshotOf = (step: JournalStep) => step.answer.snapshot ?? (step.answer.snapshotFile ? options.readSnapshot(step.answer.snapshotFile) : undefined);

  // 'http://127.0.0.1:8080/x' -> '/x' in upstream's code, once the origin is the test's baseURL.
  const rewriteUrls = (line: string) => (baseURL ? line.split(`'${baseURL}/`).join("'/") : line);

  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    const page = tabs[current] ?? 'page';
    const leave = (why: string) => leftOut.push({ step: step.index, tool: step.tool, why });
    if (!step.ok) {
      leave('it failed');
      continue;
    }
    // What a step written by the bridge (a tool's `writesStep`, the person's page actions) is given.
    const writingOf = (lines: string[]): StepWriting => ({
      args: step.args,
      argsCut: !!step.argsCut,
      page,
      tabs,
      current,
      lines,
      leave,
      newPage: ofNamedContext => {
        if (ofNamedContext === undefined) usesContext = true;
        return `page${++popups}`;
      },
      namedContext: name => {
        let variable = namedContexts.get(name);
        if (!variable) {
          variable = `context${namedContexts.size + 1}`;
          namedContexts.set(name, variable);
          lines.push(`// The agent's isolated context ${quote(name)}: its own cookies and storage, as upstream opens it.`);
          lines.push(`const ${variable} = await browser.newContext();`);
        }
        return variable;
      },
      address: url => addressFor(url, baseURL),
    });
    if (step.tool === PERSON_PAGE_ACTION) {
      const lines: string[] = [];
      const writing = writingOf(lines);
      const { url } = writePersonPageStep(writing, baseURL);
      tabs = writing.tabs;
      current = writing.current;
      if (url !== undefined) {
        // A new page: what it shows first is the baseline of the final checks. Its address as the browser spells it
        // comes with the next answer that says it.
        urlOf.set(tabs[current] ?? 'page', undefined);
        firstSnapshot.set(tabs[current] ?? 'page', undefined);
      }
      if (lines.length) {
        const from = body.length + 1;
        body.push(...lines);
        stepLines.push({ step: step.index, tool: step.tool, from, to: body.length });
      }
      continue;
    }
    const record = toolRecord(step.tool);
    const snapshot = record?.readsSnapshot || step.answer.snapshot || step.answer.snapshotFile ? snapshotOf(step) : undefined;
    const lines: string[] = [];
    if (exportAs(step.tool) === 'comment') lines.push(measuredHere(step));
    else if (exportAs(step.tool) === 'own') leave("the bridge's own tool");
    else if (onlyReads(step.tool)) leave('it only reads');
    else if (record?.answersModal) leave('written with the step that opened it');
    else if (record?.writesStep) {
      const writing = writingOf(lines);
      record.writesStep(writing);
      tabs = writing.tabs;
    } else if (exportAs(step.tool) !== 'code' && step.tool !== PERSON_ACTIONS) leave("not a step a test repeats (its answer may hold text of the page's)");
    else if (!step.answer.code.length) leave('upstream ran no code for it');
    // A test runs in Node on the person's machine: only plain Playwright statements go in (codeCheck.ts).
    else if (!step.answer.code.every(line => checkPlaywrightLine(line).plain))
      leave('its code is not plain Playwright steps (run-code, files, or text the page wrote)');
    // Upstream reads a secret from the environment only where the agent typed the secret's name (the person's own typing is theirs).
    else if (step.tool !== PERSON_ACTIONS && !secretsNamedBy(step).every(name => argsMention(step.args, name)))
      leave('it reads a secret the step did not name');
    else if ((step.answer.modal === 'dialog' || step.answer.modal === 'fileChooser') && steps.slice(i + 1).find(s => s.ok && !onlyReads(s.tool))?.argsCut) {
      leave('the step that answered it had arguments larger than the journal keeps');
    } else {
      // What the next steps say about this one: a dialog answered, files chosen.
      const next = steps.slice(i + 1).find(s => s.ok && !onlyReads(s.tool));
      const answers = next ? toolRecord(next.tool)?.answersModal : undefined;
      if (step.answer.modal === 'dialog' && next && answers === 'dialog') {
        const accept = next.args.accept !== false;
        const prompt = typeof next.args.promptText === 'string' ? quote(next.args.promptText) : '';
        lines.push(`${page}.once('dialog', dialog => dialog.${accept ? `accept(${prompt})` : 'dismiss()'});`);
      }
      const chooser = step.answer.modal === 'fileChooser' && answers === 'fileChooser' ? `fileChooser${++choosers > 1 ? choosers : ''}` : undefined;
      if (chooser) lines.push(`const ${chooser}Promise = ${page}.waitForEvent('filechooser');`);
      const opened = (step.answer.tabs?.length ?? tabs.length) > tabs.length;
      const popup = opened ? `page${++popups}` : undefined;
      if (popup) lines.push(`const ${popup}Promise = ${page}.waitForEvent('popup');`);
      for (const line of step.answer.code) lines.push(rewriteUrls(onPage(line, page)));
      if (popup) {
        lines.push(`const ${popup} = await ${popup}Promise;`);
        tabs.push(popup);
      }
      if (chooser && next) {
        const paths = Array.isArray(next.args.paths) ? next.args.paths.filter((p): p is string => typeof p === 'string') : [];
        // The bytes of the file the upload read (resolved as the upload resolved it); never a relative name, which
        // would name another file wherever the test runs.
        const read = paths.map(p => options.readUpload(p));
        if (read.every((file): file is UploadFile => file !== undefined)) {
          const files = read.map(file =>
            file.base64 === undefined
              ? quote(file.absolutePath)
              : `{ name: ${quote(file.name)}, mimeType: ${quote(file.mimeType)}, buffer: Buffer.from(${quote(file.base64)}, 'base64') }`,
          );
          lines.push(`const ${chooser} = await ${chooser}Promise;`, `await ${chooser}.setFiles([${files.join(', ')}]);`);
        } else {
          lines.push(`await ${chooser}Promise; // The chosen file could not be read again: the test chooses none.`);
          leftOut.push({ step: next.index, tool: next.tool, why: 'its file could not be read again' });
        }
      }
    }
    // Where the tabs and the current one are now, as upstream said.
    if (step.answer.tabs) {
      const currentTab = step.answer.tabs.find(t => t.current);
      if (currentTab && tabs[currentTab.index]) current = currentTab.index;
    }
    const pageNow = tabs[current] ?? 'page';
    const url = step.answer.pageUrl;
    if (url !== undefined) {
      const known = urlOf.get(pageNow);
      const navigation = !!record?.navigates;
      if (known !== undefined && known !== url) {
        // The page moved: what it showed first after that is the new baseline for the final checks.
        firstSnapshot.set(pageNow, undefined);
        // A step that moved it gets an address check (a navigation says its address itself).
        if (!navigation && lines.length) lines.push(`await expect(${pageNow}).toHaveURL(${addressFor(url, baseURL)});`);
      }
      urlOf.set(pageNow, url);
    }
    if (snapshot !== undefined) {
      if (firstSnapshot.get(pageNow) === undefined) firstSnapshot.set(pageNow, snapshot);
      lastSnapshot = { page: pageNow, text: snapshot };
    }
    if (lines.length) {
      const from = body.length + 1;
      body.push(...lines);
      stepLines.push({ step: step.index, tool: step.tool, from, to: body.length });
    }
  }
  if (lastSnapshot) {
    const checks = finalChecks(lastSnapshot.text, firstSnapshot.get(lastSnapshot.page), lastSnapshot.page);
    if (checks.length) {
      body.push('', '// What the page showed last.', ...checks);
    }
  }

  const env = [...new Set(stepLines.flatMap(s => secretsNamedBy(steps.find(step => step.index === s.step)!)))];
  const head: string[] = [
    "import { test, expect } from '@playwright/test';",
    '',
    '// Exported by Playwright Bridge from a browser session; it replays with Playwright alone, no model.',
    '// Run it with `npx playwright test` (the project needs @playwright/test: npm i -D @playwright/test).',
  ];
  if (env.length) head.push(`// Reads ${env.join(', ')} from the environment (the bridge's secrets of those names; never written here).`);
  head.push('');
  if (baseURL) head.push(`test.use({ baseURL: process.env.BASE_URL ?? ${quote(baseURL)} });`, '');
  if (options.storageState) {
    head.push('// Starts logged in, as the session did: a copy of your login profile (keep it out of version control).');
    head.push(`test.use({ storageState: ${quote(options.storageState)} });`, '');
  }
  const fixtures = ['page', ...(usesContext ? ['context'] : []), ...(namedContexts.size ? ['browser'] : [])];
  head.push(`test(${quote(options.title)}, async ({ ${fixtures.join(', ')} }) => {`);
  const offset = head.length;
  const text = [...head, ...body.map(line => (line ? `  ${line}` : '')), '});', ''].join('\n');
  return {
    text,
    stepLines: stepLines.map(s => ({ ...s, from: s.from + offset, to: s.to + offset })),
    env,
    ...(baseURL ? { baseURL } : {}),
    leftOut,
  };
}
