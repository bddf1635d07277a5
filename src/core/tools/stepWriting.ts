/**
 * What a tool whose export is `written` (its record's `writesStep`) is given to write its step into an exported
 * test: the step's arguments and the test around it (its tabs, the current one). The spec writer
 * (core/testExport/specWriter.ts) makes one for each such step and reads back the lines and tabs.
 */
import type { CallArgs } from './callWords';

export interface StepWriting {
  readonly args: CallArgs;
  /** The arguments were larger than the journal keeps: written from them, the step would be wrong. */
  readonly argsCut: boolean;
  /** The variable of the tab the step acted on. */
  readonly page: string;
  /** The test's page variables by upstream's tab index; a writer that opens or closes a tab changes it. */
  tabs: string[];
  /** Upstream's index of the current tab; a writer that switches tabs changes it (a later answer's tabs override it). */
  current: number;
  /** The lines the step puts in the test. */
  readonly lines: string[];
  /** Leaves the step out, saying why. */
  leave(why: string): void;
  /** A new page opened from the test's context: the variable that holds it (the test then takes `context`). */
  newPage(): string;
}
