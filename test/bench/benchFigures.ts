/**
 * One bench run's figures, each measured on its own: a figure or round that throws is recorded as
 * `{ failed: "<reason>" }` under its key, and the run goes on to the next. The JSON is always written (to
 * `BENCH_OUT`, when set), with every failure also listed under `failed`, and the exit code says that something
 * failed. One slow round under load (a click that took long to reach the page) used to end the bench with no
 * JSON at all.
 */
import * as fs from 'fs';
import { median } from '../support/median';

/** A figure whose measurement threw: the first line of why. */
export interface FailedFigure {
  failed: string;
}

export type Figure<T> = T | FailedFigure;

export function isFailed<T>(figure: Figure<T>): figure is FailedFigure {
  return typeof figure === 'object' && figure !== null && typeof (figure as Partial<FailedFigure>).failed === 'string';
}

export class BenchRun {
  /** What failed, by the key it was measured under ("liveView round 2/3", "testExport"), with why. */
  readonly failed: Record<string, string> = {};

  /** The figure `work` measures, or `{ failed }` when it throws (printed at once, so a long run shows it). */
  async figure<T>(key: string, work: () => T | Promise<T>): Promise<Figure<T>> {
    try {
      return await work();
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
      this.failed[key] = reason;
      console.log(`${key}: FAILED: ${reason}`);
      return { failed: reason };
    }
  }

  /**
   * A figure over the rounds that finished: `summarize` of those, or `{ failed }` naming each round's reason when
   * none did. A round that failed is in `failed` already, under its own key.
   */
  overRounds<R, T>(rounds: Figure<R>[], summarize: (finished: R[]) => T): Figure<T> {
    const finished = rounds.filter((round): round is R => !isFailed(round));
    if (finished.length) return summarize(finished);
    const reasons = [...new Set(rounds.filter(isFailed).map(round => round.failed))];
    return { failed: `no round finished (${rounds.length} tried): ${reasons.join('; ')}` };
  }

  /** Prints `line` of a figure, or that it failed and why. */
  say<T>(label: string, figure: Figure<T>, line: (figure: T) => string): void {
    console.log(isFailed(figure) ? `${label}: FAILED (${figure.failed})` : line(figure));
  }

  /**
   * The run's end: the figures with `failed` beside them, written to BENCH_OUT when set and `write` is not false;
   * the exit code 1 when anything failed.
   */
  finish(figures: Record<string, unknown>, options: { write?: boolean } = {}): void {
    const failures = Object.keys(this.failed).length;
    const all = { ...figures, failed: this.failed };
    if (process.env.BENCH_OUT && options.write !== false) {
      fs.writeFileSync(process.env.BENCH_OUT, `${JSON.stringify(all, null, 2)}\n`);
      console.log(`wrote ${process.env.BENCH_OUT}`);
    }
    if (failures) {
      console.log(`${failures} figure${failures === 1 ? '' : 's'} or round${failures === 1 ? '' : 's'} failed: ${Object.keys(this.failed).join(', ')}`);
      process.exitCode = 1;
    }
  }
}

/** The median of `pick` over rounds, to three decimals. */
export function medianOf<R>(rounds: R[], pick: (round: R) => number): number {
  return Math.round(median(rounds.map(pick)) * 1000) / 1000;
}
