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
  /**
   * The variable for a new page: of the test's context (the test then takes `context`), or of the named context
   * whose variable is given.
   */
  newPage(ofNamedContext?: string): string;
  /**
   * The test's context of a name the agent gave (`isolatedContext`): its variable, the line that opens it from the
   * test's `browser` put in `lines` the first time the test needs it.
   */
  namedContext(name: string): string;
  /** An address as the test writes it (a path once the test has a baseURL), quoted. */
  address(url: string): string;
}
