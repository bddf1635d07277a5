/**
 * Keeps the bridge's output folder under its size budget, deleting only files the bridge itself
 * wrote. Upstream's own budget deleted the oldest files of the whole output folder, whoever wrote
 * them (a project folder chosen as output lost its sources), so it is turned off and replaced by
 * this: a record, kept beside them, of the files that appeared in the folder during a call AND that
 * the call reported writing (upstream links every file it writes, by its absolute path, in its
 * result). A file the person drops into the folder between calls appears too, but nothing reports
 * it: it is never recorded, so never deleted.
 */
import * as fs from 'fs';
import * as path from 'path';
import { pathToFileURL } from 'url';
// A record edited by hand could name any file: only files below the folder are ever ours.
import { isInside } from '../core/tools/fileTools';

interface WrittenFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/** How many files the bridge keeps of its own, however small: README names it. */
export const MAX_WRITTEN_FILES = 5000;

/** The record's name inside the output folder. */
export const WRITTEN_RECORD = '.playwright-bridge-written.json';

/**
 * Each output folder's budget in this process, by its resolved path. A file larger than the whole budget is
 * deleted as soon as the call that wrote it ends, so a writer of one large file (a performance trace) fits it
 * under this before writing, and never names a file the budget is about to remove. The child's call path
 * holds the budget itself; the writers reach it by the folder they write in.
 */
const budgetOfFolder = new Map<string, number>();

/** The largest file the folder's budget keeps (it is the newest, so the older files go first); Infinity for a folder without one. */
export function largestFileKeptIn(dir: string): number {
  return budgetOfFolder.get(path.resolve(dir)) ?? Number.POSITIVE_INFINITY;
}

export class OutputBudget {
  private readonly record = new Map<string, WrittenFile>();
  /**
   * What each folder held when last listed: its mtime, files and subfolders. A new file changes its
   * folder's mtime, so after a call only changed folders are listed again (a call is not slowed by
   * a folder of thousands of files).
   */
  private readonly folders = new Map<string, { mtimeMs: number; files: Set<string>; subfolders: string[] }>();

  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
    private readonly log: (line: string) => void,
    /**
     * At most this many files of ours are kept too: the record lives in memory and is rewritten after
     * each call that writes, so a long session of small files (snapshots) must not grow it without end.
     */
    private readonly maxFiles = MAX_WRITTEN_FILES,
  ) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    budgetOfFolder.set(path.resolve(dir), maxBytes);
    for (const file of this.readRecord()) this.record.set(file.path, file);
    // Whatever is here now was there before any call of ours: never recorded, never deleted.
    this.scan(this.dir, () => undefined);
  }

  /**
   * After a tool call: note the new files the call reported writing (`reported`: its result's text and
   * the file name it was given), then delete the oldest of our files beyond the budget.
   */
  afterCall(reported: string): void {
    let changed = false;
    this.scan(this.dir, file => {
      if (this.record.has(file.path) || !mentions(reported, file.path)) return;
      this.record.set(file.path, file);
      changed = true;
    });
    // browser_stop_tracing names the trace that browser_start_tracing began: its parts are complete now.
    for (const [trace] of reported.matchAll(/\/[^\s()[\]`'"]+\.trace(?![\w.])/g)) {
      if (isInside(this.dir, trace)) changed = this.recordTraceParts(trace) || changed;
    }
    changed = this.prune() || changed;
    if (changed) this.writeRecord();
  }

  /** Walks the folders, listing only those that changed, and reports each file not seen before. */
  private scan(dir: string, onNewFile: (file: WrittenFile) => void): void {
    const stat = statOf(dir);
    if (!stat?.isDirectory()) {
      this.folders.delete(dir);
      return;
    }
    const known = this.folders.get(dir);
    if (known && known.mtimeMs === stat.mtimeMs) {
      for (const subfolder of known.subfolders) this.scan(subfolder, onNewFile);
      return;
    }
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      // Unreadable: nothing in it is ours to note.
    }
    const files = new Set<string>();
    const subfolders: string[] = [];
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) subfolders.push(full);
      else if (entry.isFile() && full !== this.recordPath) {
        files.add(full);
        if (known && !known.files.has(full)) {
          const fileStat = statOf(full);
          if (fileStat) onNewFile({ path: full, size: fileStat.size, mtimeMs: fileStat.mtimeMs });
        }
      }
    }
    // A folder seen for the first time after the start was made by a call: all its files are new.
    const firstSighting = !known && this.folders.size > 0;
    if (firstSighting) {
      for (const full of files) {
        const fileStat = statOf(full);
        if (fileStat) onNewFile({ path: full, size: fileStat.size, mtimeMs: fileStat.mtimeMs });
      }
    }
    this.folders.set(dir, { mtimeMs: stat.mtimeMs, files, subfolders });
    for (const subfolder of subfolders) this.scan(subfolder, onNewFile);
  }

  /**
   * A trace is reported by its `.trace` file alone, yet Playwright wrote its `.network` and `.stacks`
   * beside it, and the files it names (screencast frames, `resources/` snapshots and bodies), all
   * while tracing ran, before any result named them. They are the trace's: recorded with it, so the
   * budget counts and frees them too. Only files the trace names, inside its own folder.
   */
  private recordTraceParts(trace: string): boolean {
    const dir = path.dirname(trace);
    const base = path.basename(trace, '.trace');
    const parts = ['.trace', '.network', '.stacks'].map(ext => path.join(dir, base + ext)).filter(file => statOf(file)?.isFile());
    const named = new Set<string>();
    for (const file of parts) {
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      // Its events name files relative to the folder ("screencast/page@…-1.jpeg") or by a resource's name ("sha1": "…").
      for (const match of text.matchAll(/"([^"\\]{8,300})"/g)) {
        for (const candidate of [path.join(dir, match[1]), path.join(dir, 'resources', match[1])]) {
          if (isInside(dir, candidate)) named.add(candidate);
        }
      }
    }
    let changed = false;
    for (const file of [...parts, ...named]) {
      const stat = statOf(file);
      if (!stat?.isFile()) continue;
      // The log files were recorded when tracing began, nearly empty: their size now is what counts.
      const known = this.record.get(file);
      if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs) continue;
      this.record.set(file, { path: file, size: stat.size, mtimeMs: stat.mtimeMs });
      changed = true;
    }
    return changed;
  }

  /** Bytes of the files we wrote and still hold. */
  get writtenBytes(): number {
    let total = 0;
    for (const file of this.record.values()) total += file.size;
    return total;
  }

  private prune(): boolean {
    let total = this.writtenBytes;
    if (total <= this.maxBytes && this.record.size <= this.maxFiles) return false;
    const oldestFirst = [...this.record.values()].sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (const file of oldestFirst) {
      if (total <= this.maxBytes && this.record.size <= this.maxFiles) break;
      this.record.delete(file.path);
      total -= file.size;
      // A file someone replaced since we wrote it is theirs now: forget it, never delete it.
      const now = statOf(file.path);
      if (!now || now.size !== file.size || now.mtimeMs !== file.mtimeMs) continue;
      try {
        fs.unlinkSync(file.path);
      } catch (error) {
        this.log(`Output budget: could not delete ${file.path}: ${(error as Error).message}`);
      }
    }
    return true;
  }

  private get recordPath(): string {
    return path.join(this.dir, WRITTEN_RECORD);
  }

  private readRecord(): WrittenFile[] {
    try {
      const parsed = JSON.parse(fs.readFileSync(this.recordPath, 'utf8')) as unknown;
      return Array.isArray(parsed) ? parsed.filter(isWrittenFile).filter(file => isInside(this.dir, file.path)) : [];
    } catch {
      return [];
    }
  }

  private writeRecord(): void {
    const temp = `${this.recordPath}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(temp, JSON.stringify([...this.record.values()]), { mode: 0o600 });
      fs.renameSync(temp, this.recordPath);
    } catch (error) {
      this.log(`Output budget: could not save its record: ${(error as Error).message}`);
    }
  }
}

/** Whether a result names the file: as the absolute path upstream links, or as a file URL. */
function mentions(reported: string, file: string): boolean {
  return reported.includes(file) || reported.includes(pathToFileURL(file).href);
}

function statOf(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

function isWrittenFile(value: unknown): value is WrittenFile {
  const file = value as WrittenFile;
  return typeof file === 'object' && file !== null && typeof file.path === 'string' && typeof file.size === 'number' && typeof file.mtimeMs === 'number';
}
