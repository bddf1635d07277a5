/**
 * What the writer reads from disk, and where an exported test goes: upstream's snapshot files, the files
 * a session uploaded (their bytes go into the test, up to a size), and the test file itself, written
 * without replacing one that exists unless asked.
 */
import * as fs from 'fs';
import * as path from 'path';
import { isInside, resolveWrittenFile } from '../tools/fileTools';
import type { SpecOptions, UploadFile } from './specWriter';

/** Bigger uploads are named by path in the test instead of carried in it. */
const MAX_INLINE_BYTES = 512 * 1024;

const MIME_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.html': 'text/html',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.zip': 'application/zip',
  '.xml': 'application/xml',
  '.md': 'text/markdown',
};

/** A snapshot upstream linked; with `outputDir`, only one in that folder (a page can put a link's text in a snapshot). */
export function readSnapshotFile(file: string, outputDir?: string): string | undefined {
  if (outputDir !== undefined && !isInside(outputDir, path.resolve(file))) return undefined;
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** A file an upload read: an absolute path as it is, a relative one in `outputDir`, by the rule the upload itself followed. */
export function readUploadFile(file: string, outputDir?: string): UploadFile | undefined {
  if (!path.isAbsolute(file) && outputDir === undefined) return undefined;
  const resolved = resolveWrittenFile(file, outputDir ?? '/');
  if ('error' in resolved) return undefined;
  const absolutePath = resolved.path;
  try {
    const stat = fs.statSync(absolutePath);
    if (!stat.isFile()) return undefined;
    const name = path.basename(absolutePath);
    const mimeType = MIME_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
    if (stat.size > MAX_INLINE_BYTES) return { name, mimeType, absolutePath };
    return { name, mimeType, base64: fs.readFileSync(absolutePath).toString('base64'), absolutePath };
  } catch {
    return undefined;
  }
}

/** Readers for a session whose files are where its answers say (the bench, the tests). */
export const DISK_READERS: Pick<SpecOptions, 'readSnapshot' | 'readUpload'> = {
  readSnapshot: file => readSnapshotFile(file),
  readUpload: file => readUploadFile(file),
};

/** Readers for the bridge's own session: snapshots only from its output folder, relative uploads resolved there. */
export function bridgeReaders(outputDir: string): Pick<SpecOptions, 'readSnapshot' | 'readUpload'> {
  return { readSnapshot: file => readSnapshotFile(file, outputDir), readUpload: file => readUploadFile(file, outputDir) };
}

/** A file name for a test of this title: lower-case words joined by dashes, `.spec.ts`. */
export function specFileName(title: string): string {
  const words = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${words || 'browser-session'}.spec.ts`;
}

/** The same name with `.failing` before `.spec.ts` (or .js, .mjs, .cjs): what a red test is kept as. */
export function failingName(file: string): string {
  const named = file.replace(/(\.(spec|test))?\.(ts|js|mjs|cjs)$/, '.failing.spec.$3');
  return named === file ? `${file}.failing` : named;
}

/** A path in `folder` for `name` that no file has yet (`name-2.spec.ts`, ...). */
export function freePath(folder: string, name: string): string {
  let candidate = path.join(folder, name);
  for (let n = 2; fs.existsSync(candidate); n++) candidate = path.join(folder, name.replace(/\.spec\.ts$/, `-${n}.spec.ts`));
  return candidate;
}
