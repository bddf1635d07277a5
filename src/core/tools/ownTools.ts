/**
 * The bridge's own tools, one definition each in own/ (defineOwnTool.ts): the DevTools tools and the session
 * tools the child answers, Export as test and time travel's restore the extension host answers. This list is what
 * the registry (toolRegistry.ts) makes their records of; their names are exported for the code that calls them.
 */
import type { OwnTool } from './defineOwnTool';
import { ACCESSIBILITY_AUDIT } from './own/accessibilityAudit';
import { EMULATE } from './own/emulate';
import { EXPORT_TEST } from './own/exportTest';
import { PERFORMANCE_TRACE } from './own/performanceTrace';
import { RESTORE_STEP } from './own/restoreStep';
import { SESSION_CLOSE } from './own/sessionClose';
import { SESSION_LIST } from './own/sessionList';

/** In the order they are published, after upstream's. */
export const OWN_TOOLS = [
  PERFORMANCE_TRACE,
  ACCESSIBILITY_AUDIT,
  EMULATE,
  SESSION_LIST,
  SESSION_CLOSE,
  EXPORT_TEST,
  RESTORE_STEP,
] as const satisfies readonly OwnTool[];

export type OwnToolName = (typeof OWN_TOOLS)[number]['name'];

export const EXPORT_TEST_TOOL = EXPORT_TEST.name;
/** Time travel: the browser put back to an earlier step (also the name of that step in the Activity list). */
export const RESTORE_STEP_TOOL = RESTORE_STEP.name;
export const SESSION_LIST_TOOL = SESSION_LIST.name;
export const SESSION_CLOSE_TOOL = SESSION_CLOSE.name;
/** The DevTools tools: the child answers them on the caller's current tab (child/devtools/). */
export const PERFORMANCE_TRACE_TOOL = PERFORMANCE_TRACE.name;
export const ACCESSIBILITY_AUDIT_TOOL = ACCESSIBILITY_AUDIT.name;
export const EMULATE_TOOL = EMULATE.name;
