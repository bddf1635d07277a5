/**
 * Starts that share the cache take turns: two `npm start`, or a start beside a running test, each found the
 * code-server install missing and one deleted what the other was installing. A lock folder (made atomically by
 * mkdir) holds the owner's pid; a later start waits for it, and takes over a lock whose owner has died.
 */
import * as fs from 'fs';
import * as path from 'path';

/** How often a waiting start looks at the lock again. */
const POLL_MS = 500;

function ownerAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
  } catch {
    // Made but not yet written (its owner is between mkdir and write), or written by a start that died there: a
    // lock folder older than a few seconds with no pid is stale.
    try {
      return Date.now() - fs.statSync(lock).mtimeMs < 5000;
    } catch {
      return false;
    }
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Runs `work` while holding `lock` (a folder path), after any other process holding it has finished or died.
 * `waiting` is called once if it has to wait, with the pid it waits for.
 */
export function takeTurn<T>(lock: string, work: () => T, waiting: (pid: string) => void = () => undefined): T {
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  let told = false;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (!ownerAlive(lock)) {
        fs.rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (!told) {
        told = true;
        waiting(fs.existsSync(path.join(lock, 'pid')) ? fs.readFileSync(path.join(lock, 'pid'), 'utf8') : '?');
      }
      sleep(POLL_MS);
    }
  }
  try {
    fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
    return work();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
