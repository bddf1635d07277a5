/**
 * What the writer reads from disk, and where an exported test goes: upstream's snapshot files, the files
 * a session uploaded (their bytes go into the test, up to a size), and the test file itself, written
 * without replacing one that exists unless asked.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { SpecOptions, UploadFile } from './specWriter';

/** Bigger uploads are named by path in the test instead of carried in it. */
const MAX_INLINE_BYTES = 512 * 1024;

const MIME_TYPES: Record<string, string> = {
  '.txt': 'text/plain', '.csv': 'text/csv', '.json': 'application/json', '.html': 'text/html', '.pdf': 'application/pdf',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp', '.svg': 'image/svg+xml',
  '.zip': 'application/zip', '.xml': 'application/xml', '.md': 'text/markdown',
};

export function readSnapshotFile(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

export function readUploadFile(file: string): UploadFile | undefined {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return undefined;
    const name = path.basename(file);
    const mimeType = MIME_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
    if (stat.size > MAX_INLINE_BYTES) return { name, mimeType };
    return { name, mimeType, base64: fs.readFileSync(file).toString('base64') };
  } catch {
    return undefined;
  }
}

export const DISK_READERS: Pick<SpecOptions, 'readSnapshot' | 'readUpload'> = { readSnapshot: readSnapshotFile, readUpload: readUploadFile };

/** A file name for a test of this title: lower-case words joined by dashes, `.spec.ts`. */
export function specFileName(title: string): string {
  const words = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  return `${words || 'browser-session'}.spec.ts`;
}

/** The same name with `.failing` before `.spec.ts`: what a red test is kept as. */
export function failingName(file: string): string {
  return file.replace(/(\.spec)?\.ts$/, '.failing.spec.ts');
}

/** A path in `folder` for `name` that no file has yet (`name-2.spec.ts`, ...). */
export function freePath(folder: string, name: string): string {
  let candidate = path.join(folder, name);
  for (let n = 2; fs.existsSync(candidate); n++) candidate = path.join(folder, name.replace(/\.spec\.ts$/, `-${n}.spec.ts`));
  return candidate;
}
