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
  /** Start time: clock ticks since boot (Linux) or `ps`'s lstart (macOS and other Unixes); empty on Windows. */
  started: string;
}

/** Windows has no start time we read here (taskkill /T walks the tree by itself). */
const HAS_START_TIMES = process.platform !== 'win32';

/** The pids as they are now, with their start times (a process that ended meanwhile is left out). */
export function identify(pids: number[]): KnownProcess[] {
  const started = startTimesOf(pids);
  return pids.map(pid => ({ pid, started: started.get(pid) ?? '' })).filter(p => p.started !== '' || !HAS_START_TIMES);
}

/** Whether the process we saw still runs (the same one, not a new process that got its pid). */
export function isSameProcess(known: KnownProcess): boolean {
  if (!isAlive(known.pid)) return false;
  return !HAS_START_TIMES || startTimesOf([known.pid]).get(known.pid) === known.started;
}

/** Start times of the pids that still run; one `ps` call for all of them where there is no /proc. */
function startTimesOf(pids: number[]): Map<number, string> {
  const times = new Map<number, string>();
  if (!pids.length || !HAS_START_TIMES) return times;
  if (process.platform === 'linux') {
    for (const pid of pids) {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        // Fields after the command name (which may hold spaces and parentheses); start time is field 22.
        times.set(pid, stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
      } catch {
        // Gone.
      }
    }
    return times;
  }
  try {
    // macOS has no /proc; ps prints each start time to the second, and leaves out pids that do not run (exiting 1 if none does).
    const output = execFileSync('ps', ['-o', 'pid=', '-o', 'lstart=', '-p', pids.join(',')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, LC_ALL: 'C' },
    });
    return parsePsStartTimes(output);
  } catch {
    return times;
  }
}

/**
 * `ps -o pid= -o lstart=` output, a line per process ("  4242 Tue Dec  1 00:05:49 2026", the day padded
 * with a space), as pid to one canonical string. A line in a format we do not know is left out: then
 * we do not kill by that pid rather than guess.
 */
export function parsePsStartTimes(output: string): Map<number, string> {
  const times = new Map<number, string>();
  for (const line of output.split('\n')) {
    const match = /^\s*(\d+)\s+[A-Za-z]{3}\s+([A-Za-z]{3})\s+(\d{1,2})\s+(\d{1,2}:\d{2}:\d{2})\s+(\d{4})\s*$/.exec(line);
    if (match) times.set(Number(match[1]), `${match[5]} ${match[2]} ${match[3].padStart(2, '0')} ${match[4]}`);
  }
  return times;
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
