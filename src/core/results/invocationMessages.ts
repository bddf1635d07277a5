/**
 * What the person sees before and while a tool runs: one line naming the key argument, and for
 * tools that run code or touch files, a confirmation that shows exactly the code or the paths.
 */
import * as path from 'path';
import { CodeFile } from '../tools/codeFromFile';
import { localFilesRead, namedFileWritten, readsLocalFiles, resolveWrittenFile } from '../tools/fileTools';
import { CallArgs, elementOf, short } from '../tools/callWords';
import { toolRecord } from '../tools/toolRegistry';

export interface InvocationPresentation {
  invocationMessage: string;
  /** Markdown. Present only for calls that need the person's explicit yes. */
  confirmation?: { title: string; message: string };
}

type Args = CallArgs;

/** What a confirmation needs beyond the arguments: where files go, and a code file's content. */
export interface InvocationContext {
  /** The bridge's output folder, where relative names of written files land. */
  outputDir?: string;
  /** For `browser_run_code_unsafe` with a `filename`: what the file holds now. */
  codeFile?: CodeFile;
  /** The person's secrets by name: code run in the bridge's own process could read their values. */
  secretNames?: readonly string[];
}

export function presentInvocation(toolName: string, displayName: string, rawArgs: unknown, context: InvocationContext = {}): InvocationPresentation {
  const args: Args = rawArgs && typeof rawArgs === 'object' ? (rawArgs as Args) : {};
  const invocationMessage = describeCall(toolName, displayName, args);
  const confirmation = confirmationFor(toolName, displayName, args, context);
  if (confirmation && toolRecord(toolName)?.runsCode?.inBridgeProcess && context.secretNames?.length) {
    // The values sit in the process this code runs in: no mask or site rule stands between them.
    const names = context.secretNames.map(code).join(', ');
    confirmation.message +=
      `\n\n**Secrets are set** (${names}): this code runs in the bridge's own process, which holds their values, ` +
      'and could read them and send them anywhere. Allow it only if you trust the code.';
  }
  return { invocationMessage, confirmation };
}

/** The tool's own words for the call (its record's `says`), or its title with its key argument. */
function describeCall(toolName: string, displayName: string, args: Args): string {
  const says = toolRecord(toolName)?.says;
  if (says) return says(args);
  const key = ['url', 'key', 'text', 'name', 'pattern', 'filename'].find(k => typeof args[k] === 'string');
  const target = elementOf(args);
  return `${displayName}${key ? `: ${short(args[key])}` : target !== 'the page' ? `: ${target}` : ''}`;
}

function confirmationFor(toolName: string, displayName: string, args: Args, context: InvocationContext): InvocationPresentation['confirmation'] {
  const written = namedFileWritten(toolName, args);
  const writes = written === undefined ? '' : ` and write its result to ${code(writtenPath(written, context))}`;
  const runner = toolRecord(toolName)?.runsCode;
  if (runner) {
    const source = typeof args[runner.argument] === 'string' ? (args[runner.argument] as string) : undefined;
    const title = `Run code ${runner.where.startsWith('inside') ? 'in the page' : 'with full Playwright access'}?`;
    const file = runner.fileArgument !== undefined && typeof args[runner.fileArgument] === 'string' ? (args[runner.fileArgument] as string) : undefined;
    if (file !== undefined && source !== undefined) {
      const refusal = 'Such a call is refused: it would run the file, not the code shown. Nothing runs.';
      return { title, message: `${displayName} was given both code and the file ${code(file)}. ${refusal}` };
    }
    if (file !== undefined) {
      const shown = context.codeFile;
      if (!shown || 'error' in shown) {
        const why = shown && 'error' in shown ? shown.error : 'it was not read';
        return { title, message: `${displayName} asks to run the file ${code(shown?.path ?? file)}, which cannot be shown: ${why} Nothing runs.` };
      }
      const promise = 'It runs exactly this text, and nothing if the file changes before you answer';
      const what = `${displayName} will run the code in the file ${code(shown.path)} ${runner.where}${el(args)}`;
      return { title, message: `${what}. ${promise}:\n\n${fence(shown.content)}` };
    }
    return { title, message: `${displayName} will run this code ${runner.where}${el(args)}${writes}:\n\n${fence(source ?? '(no code given)')}` };
  }
  // A code file was handled above, shown whole; the other readers list the files they read.
  if (readsLocalFiles(toolName)) {
    // A read file's relative name is resolved like a written one (the output folder); show the exact files read.
    const paths = localFilesRead(toolName, args).map(p => writtenPath(p, context));
    const listed = paths.map(p => `- ${code(p)}`).join('\n');
    return {
      title: 'Let the browser read local files?',
      message: `${displayName} will give the page ${paths.length ? `these files:\n\n${listed}` : 'the files it is asked for'}`,
    };
  }
  if (written !== undefined) {
    return { title: 'Write a file?', message: `${displayName} will write ${code(writtenPath(written, context))}.` };
  }
  return undefined;
}

/** Where a written file lands, as the child will resolve it (relative names: the output folder). */
function writtenPath(filename: string, context: InvocationContext): string {
  if (!context.outputDir) return path.isAbsolute(filename) ? filename : `${filename} (in the Playwright Bridge output folder)`;
  const target = resolveWrittenFile(filename, context.outputDir);
  return 'path' in target ? target.path : `${filename} (refused: it leaves the output folder)`;
}

/** Inline code no path can break out of. */
function code(text: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map(run => run.length));
  const marks = '`'.repeat(longestRun + 1);
  return `${marks}${text.startsWith('`') || text.endsWith('`') ? ` ${text} ` : text}${marks}`;
}

function el(args: Args): string {
  const element = elementOf(args);
  return element === 'the page' ? '' : ` on ${element}`;
}

/** A Markdown code block no content can break out of. */
function fence(code: string): string {
  const longestRun = Math.max(2, ...(code.match(/`+/g) ?? []).map(run => run.length));
  const marks = '`'.repeat(longestRun + 1);
  return `${marks}js\n${code}\n${marks}`;
}
