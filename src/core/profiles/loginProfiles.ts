import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/** A profile bigger than this is refused: storage state is cookies and local storage, not a cache. */
export const MAX_PROFILE_BYTES = 5 * 1024 * 1024;
/**
 * What a profile's name may look like (it names a file). Not ending in `.previous` (in any case: macOS
 * and Windows folders ignore it), which names a profile's backup: `work.previous` would be `work`'s.
 */
export const PROFILE_NAME = /^(?!.*\.[pP][rR][eE][vV][iI][oO][uU][sS]$)[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/;
/** What PROFILE_NAME asks for, in words. */
export const PROFILE_NAME_RULE =
  'Letters, digits, space, dot, _ or -, starting with a letter or digit (at most 64), not ending in ".previous" ' + "(that names a profile's backup).";
/** How long a save or delete waits for another to finish before saying so. */
const LOCK_WAIT_MS = 5000;

export interface LoginProfileInfo {
  name: string;
  bytes: number;
  savedAt: Date;
  hasPrevious: boolean;
}

/**
 * Named login profiles: a browser context's storage state (cookies, local storage) saved after a
 * person logged in by hand, so new contexts start logged in. Each is a private file (0600 in a 0700
 * folder), written to a temp file and renamed (a reader never sees half a file), its previous
 * version kept beside it, and locked while it is written or deleted (two windows saving at once
 * take turns; one that waits too long is told so). Nothing here logs a profile's content.
 */
export class LoginProfiles {
  constructor(readonly folder: string) {}

  pathOf(name: string): string {
    if (!PROFILE_NAME.test(name)) {
      throw new Error(`"${name}" is not a profile name. ${PROFILE_NAME_RULE}`);
    }
    return path.join(this.folder, `${name}.json`);
  }

  list(): LoginProfileInfo[] {
    if (!fs.existsSync(this.folder)) return [];
    return fs
      .readdirSync(this.folder)
      .filter(file => file.endsWith('.json') && !file.endsWith('.previous.json'))
      .map(file => {
        const name = file.slice(0, -'.json'.length);
        const stat = fs.statSync(path.join(this.folder, file));
        return { name, bytes: stat.size, savedAt: stat.mtime, hasPrevious: fs.existsSync(path.join(this.folder, `${name}.previous.json`)) };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Saves `state` (the JSON of a storage state) as `name`, keeping the version it replaces. */
  async save(name: string, state: string): Promise<LoginProfileInfo> {
    const target = this.pathOf(name);
    const bytes = Buffer.byteLength(state);
    if (bytes > MAX_PROFILE_BYTES) {
      throw new Error(
        `The login state is ${(bytes / 1024 / 1024).toFixed(1)} MB, over the ${MAX_PROFILE_BYTES / 1024 / 1024} MB a profile may hold. ` +
          'Close tabs of sites you do not need logged in, then save again.',
      );
    }
    JSON.parse(state);
    fs.mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    fs.chmodSync(this.folder, 0o700);
    return this.withLock(name, () => {
      const temp = path.join(this.folder, `.${name}.${crypto.randomBytes(6).toString('hex')}.tmp`);
      const fd = fs.openSync(temp, 'wx', 0o600);
      try {
        fs.writeSync(fd, state);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      if (fs.existsSync(target)) fs.renameSync(target, path.join(this.folder, `${name}.previous.json`));
      fs.renameSync(temp, target);
      return this.list().find(p => p.name === name)!;
    });
  }

  /** The saved state of `name`, or a clear error if there is none. */
  read(name: string): string {
    const file = this.pathOf(name);
    if (!fs.existsSync(file)) throw new Error(`There is no login profile "${name}".`);
    return fs.readFileSync(file, 'utf8');
  }

  /** Deletes `name` and its previous version. */
  async delete(name: string): Promise<void> {
    const file = this.pathOf(name);
    await this.withLock(name, () => {
      fs.rmSync(file, { force: true });
      fs.rmSync(path.join(this.folder, `${name}.previous.json`), { force: true });
    });
  }

  private async withLock<T>(name: string, work: () => T): Promise<T> {
    const lock = path.join(this.folder, `.${name}.lock`);
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        fs.writeFileSync(lock, String(process.pid), { flag: 'wx', mode: 0o600 });
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        if (this.lockIsStale(lock)) {
          fs.rmSync(lock, { force: true });
          continue;
        }
        if (Date.now() > deadline) {
          throw new Error(`Login profile "${name}" is in use: another save or delete has held it for over ${LOCK_WAIT_MS / 1000} s. Try again in a moment.`, {
            cause: error,
          });
        }
        await new Promise(resolve => setTimeout(resolve, 25));
      }
    }
    try {
      return work();
    } finally {
      fs.rmSync(lock, { force: true });
    }
  }

  /** A lock whose writer is gone (it crashed mid-save) must not block the profile forever. */
  private lockIsStale(lock: string): boolean {
    try {
      const pid = Number(fs.readFileSync(lock, 'utf8'));
      if (!Number.isInteger(pid) || pid <= 0) return Date.now() - fs.statSync(lock).mtimeMs > LOCK_WAIT_MS;
      process.kill(pid, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
  }
}
