import * as fs from 'fs';
import * as path from 'path';
import { SecretMask } from '../core/egress/secretMask';

/** Files larger than this are left as they are (a video, a trace): masking reads them whole. */
const MAX_MASKED_BYTES = 20 * 1024 * 1024;
/** What upstream writes as text: snapshots, console and network logs, Markdown, JSON (storage state, HAR). */
const TEXT_FILE = /\.(ya?ml|log|md|txt|json|har|html?|csv)$/i;

/**
 * The text files a call wrote into the bridge's output folder, as its result names them, masked in
 * place: upstream writes snapshots and console and network logs with the page's text as it was, and a
 * person or an agent that opens them must not find a secret's value there either. Only files the
 * result names, inside the output folder, changed since the call began: never a file of the person's.
 */
export async function maskWrittenFiles(outputDir: string, resultText: string, sinceMs: number, mask: SecretMask, log: (line: string) => void): Promise<number> {
  let masked = 0;
  for (const file of filesNamedIn(resultText, outputDir)) {
    try {
      if (await maskFile(file, sinceMs, mask)) masked++;
    } catch (error) {
      log(`Could not mask secrets in ${path.basename(file)}: ${(error as Error).message}`);
    }
  }
  return masked;
}

/**
 * Masks one file in place. Upstream appends console lines to its log as they come (O_APPEND), so a
 * line may arrive while we mask: the file is written only if its size did not change since it was
 * read, else read again (a few times; the next call masks what is left).
 */
async function maskFile(file: string, sinceMs: number, mask: SecretMask): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const stat = await fs.promises.stat(file);
    if (!stat.isFile() || stat.size > MAX_MASKED_BYTES || stat.mtimeMs < sinceMs - 1000) return false;
    const text = await fs.promises.readFile(file, 'utf8');
    const safe = mask.text(text);
    if (safe === text) return false;
    if ((await fs.promises.stat(file)).size !== Buffer.byteLength(text)) continue;
    await fs.promises.writeFile(file, safe);
    return true;
  }
  return false;
}

/** Absolute paths inside `dir` that the text mentions (upstream links the files it wrote, a log with `#L3-L5`). */
export function filesNamedIn(text: string, dir: string): string[] {
  const root = path.resolve(dir) + path.sep;
  const found = new Set<string>();
  let at = text.indexOf(root);
  while (at >= 0) {
    const rest = text.slice(at);
    const candidate = /^[^\s)\]"'`<>]+/.exec(rest)?.[0] ?? '';
    const resolved = path.resolve(candidate.replace(/#L\d+(-L\d+)?$/, '').replace(/[.,;:]+$/, ''));
    if (resolved.startsWith(root) && TEXT_FILE.test(resolved)) found.add(resolved);
    at = text.indexOf(root, at + root.length);
  }
  return [...found];
}
