/**
 * `browser_run_code_unsafe` can load its code from a file. A confirmation must show what will run,
 * so the language-model tool reads the file when it asks, remembers exactly what it showed, and
 * runs that text (as `code`) only if the file still holds it when the person says yes.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/** What was read from a code file for a confirmation. */
export type CodeFile = { path: string; content: string } | { path: string; error: string };

const MAX_CODE_BYTES = 256 * 1024;

export class ShownCodeFiles {
  /** Digest of the content each file had when it was shown, by resolved path. */
  private readonly shown = new Map<string, string>();

  /** Reads the file for the confirmation (relative names from the first of `roots`: the callers pass the output folder). */
  show(filename: string, roots: readonly string[]): CodeFile {
    const file = readCodeFile(filename, roots);
    if ('content' in file) this.shown.set(file.path, digest(file.content));
    else this.shown.delete(file.path);
    return file;
  }

  /** The code to run: exactly what was shown, or why it will not run. Each showing allows one run. */
  take(filename: string, roots: readonly string[]): { code: string } | { error: string } {
    const file = readCodeFile(filename, roots);
    const shown = this.shown.get(file.path);
    this.shown.delete(file.path);
    if ('error' in file) return { error: file.error };
    if (shown === undefined) return { error: `The content of ${file.path} was not shown for confirmation, so it does not run.` };
    if (shown !== digest(file.content)) {
      return { error: `${file.path} changed after it was shown for confirmation; nothing ran. Ask again to see the new content.` };
    }
    return { code: file.content };
  }
}

export function readCodeFile(filename: string, roots: readonly string[]): CodeFile {
  const base = roots[0];
  if (!path.isAbsolute(filename) && !base) {
    return { path: filename, error: `The relative path ${filename} needs an open workspace folder; give an absolute path.` };
  }
  const resolved = path.isAbsolute(filename) ? path.normalize(filename) : path.resolve(base, filename);
  try {
    const stat = fs.statSync(resolved);
    if (!stat.isFile()) return { path: resolved, error: `${resolved} is not a file.` };
    if (stat.size > MAX_CODE_BYTES) return { path: resolved, error: `${resolved} is ${stat.size} bytes; code files over ${MAX_CODE_BYTES} bytes are not run.` };
    return { path: resolved, content: fs.readFileSync(resolved, 'utf8') };
  } catch (error) {
    return { path: resolved, error: `${resolved} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.` };
  }
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
