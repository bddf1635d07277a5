import { ChildProcess, spawn } from 'child_process';
import { isAlive } from '../../src/core/childProcess/processTree';

/**
 * Processes that each keep a core busy (`node -e "for(;;){}"`), for a test that must hold on a loaded machine
 * as well as on a quiet one: a wait that is a condition passes beside them, a deadline is what they break.
 * Started by the test and stopped by it, each proven gone.
 */
export interface BusyLoops {
  readonly pids: readonly number[];
  /** Kills every loop and resolves once each has exited and no longer exists; rejects, naming them, if one stays. */
  stop(): Promise<void>;
}

export function startBusyLoops(count: number): BusyLoops {
  // ELECTRON_RUN_AS_NODE: inside VS Code's desktop host the running program is Electron, which then runs as Node.
  const loops: ChildProcess[] = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore', env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } }),
  );
  const exited = loops.map(
    loop =>
      new Promise<void>(resolve => {
        if (loop.exitCode !== null || loop.signalCode !== null) resolve();
        else loop.once('exit', () => resolve());
      }),
  );
  const pids = loops.map(loop => loop.pid!);
  return {
    pids,
    async stop() {
      for (const loop of loops) loop.kill('SIGKILL');
      // Reaped ('exit'), so not even a zombie is left to be mistaken for a running loop.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(exited),
        new Promise<void>(resolve => {
          timer = setTimeout(resolve, 10000);
        }),
      ]).finally(() => clearTimeout(timer));
      const left = pids.filter(pid => isAlive(pid));
      if (left.length) throw new Error(`busy loops still running after SIGKILL: ${left.join(', ')}`);
    },
  };
}
