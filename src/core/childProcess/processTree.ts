import { execFileSync } from 'child_process';
import * as fs from 'fs';

/**
 * Finding and killing whole process trees. Playwright starts browsers in their own process group,
 * so killing the child's group is not enough: we walk the tree by parent pid instead.
 */

/** Every descendant of `rootPid` (not the root itself), parents before children. */
export function listDescendants(rootPid: number): number[] {
  const parents = readParentMap();
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parents) {
    const list = children.get(ppid);
    if (list) list.push(pid);
    else children.set(ppid, [pid]);
  }
  const result: number[] = [];
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.shift()!;
    for (const child of children.get(pid) ?? []) {
      result.push(child);
      queue.push(child);
    }
  }
  return result;
}

export function isAlive(pid: number): boolean {
  if (process.platform === 'linux') {
    // A zombie has exited; it only waits for its parent to reap it.
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A process as we saw it: its pid and when it started. A pid alone is not enough to kill by later:
 * once the process has gone, the system may hand the same pid to someone else's program.
 */
export interface KnownProcess {
  pid: number;
  /** Start time in clock ticks since boot (Linux); empty where it cannot be read. */
  started: string;
}

/** The pids as they are now, with their start times. */
export function identify(pids: number[]): KnownProcess[] {
  return pids.map(pid => ({ pid, started: startTimeOf(pid) ?? '' })).filter(p => p.started !== '' || process.platform !== 'linux');
}

/** Whether the process we saw still runs (the same one, not a new process that got its pid). */
export function isSameProcess(known: KnownProcess): boolean {
  if (!isAlive(known.pid)) return false;
  return process.platform !== 'linux' || startTimeOf(known.pid) === known.started;
}

function startTimeOf(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses); start time is field 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * SIGKILLs a root process we know is ours (still our child, not yet reaped) with every descendant,
 * collected before the first kill so orphans are not missed, and the processes seen below it
 * earlier that are still the same processes.
 */
export function killTree(rootPid: number | undefined, known: KnownProcess[] = []): number[] {
  const current = rootPid === undefined ? [] : [rootPid, ...safeDescendants(rootPid)];
  const pids = [...new Set([...current, ...known.filter(isSameProcess).map(p => p.pid)])];
  if (process.platform === 'win32' && rootPid !== undefined) {
    try {
      execFileSync('taskkill', ['/pid', String(rootPid), '/T', '/F'], { stdio: 'ignore' });
    } catch {
      // Already gone.
    }
  }
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  return pids;
}

function safeDescendants(pid: number): number[] {
  try {
    return listDescendants(pid);
  } catch {
    return [];
  }
}

function readParentMap(): Map<number, number> {
  const map = new Map<number, number>();
  if (process.platform === 'linux') {
    for (const name of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
        // The command name may hold spaces and parentheses; fields resume after the last ')'.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        map.set(Number(name), Number(fields[1]));
      } catch {
        // The process ended while we read.
      }
    }
    return map;
  }
  if (process.platform === 'win32') {
    return map; // taskkill /T walks the tree itself.
  }
  const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  for (const line of out.split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (pid && !Number.isNaN(ppid)) map.set(pid, ppid);
  }
  return map;
}
