/** What the tests and the bench read of a process's memory, from Linux's /proc. */
import * as fs from 'fs';

/** A process's peak resident memory so far (VmHWM), in MB. */
export function peakRssMB(pid: number): number {
  const kB = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kB) / 1024;
}
