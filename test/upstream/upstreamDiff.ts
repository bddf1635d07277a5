/**
 * What a @playwright/mcp release changes against the pinned one, each change sorted by kind and keyed so that a
 * decision about it can be written once (decisions.ts) and found again by the next check: a tool added or gone,
 * a parameter added, gone, changed or newly required, a description or annotation changed, a flag or config key
 * added, gone or reworded. Each kind names the part of the bridge that must decide about it.
 */
import type { UpstreamSurface } from './upstreamSurface';

export type ChangeKind =
  | 'newTool'
  | 'removedTool'
  | 'newParameter'
  | 'removedParameter'
  | 'changedParameter'
  | 'changedRequired'
  | 'changedDescription'
  | 'changedAnnotations'
  | 'newFlag'
  | 'removedFlag'
  | 'changedFlag'
  | 'newConfigKey'
  | 'removedConfigKey'
  | 'changedCode';

export interface UpstreamChange {
  /** `kind:subject`, as decisions.ts names it (`newParameter:browser_tabs.isolatedContext`). */
  key: string;
  kind: ChangeKind;
  subject: string;
  /** What was, and what is now (JSON or text), where the change has two sides. */
  before?: string;
  after?: string;
}

/** Where in the bridge each kind of change is decided (the report says it beside each undecided change). */
export const DECIDED_IN: Record<ChangeKind, string> = {
  newTool: "the tool's record in UPSTREAM (src/core/tools/toolRegistry.ts), then npm run generate:tools",
  removedTool: 'its record in UPSTREAM and every typed use of its name (the compiler lists them once the record goes)',
  newParameter: "the tool's record in UPSTREAM: a trait if the bridge must act on it (a file, a page, a context, typed text), and the export's step",
  removedParameter: "the tool's record in UPSTREAM and its export step, where they read it",
  changedParameter: "the tool's record in UPSTREAM, where a trait reads the parameter",
  changedRequired: "the tool's record in UPSTREAM, where a trait reads the parameter",
  changedDescription: "nothing unless the bridge words the tool itself (the tool's record's `says`); the manifest is regenerated",
  changedAnnotations: "the tool's record in UPSTREAM: `acts` or `reads` (readonly mode, checkpoints) follow upstream's readOnlyHint",
  newFlag: 'src/child/upstreamConfig.ts (what the child sets) or the differences table in src/README.md (what it leaves to upstream)',
  removedFlag: 'src/child/upstreamConfig.ts and src/child/launchOptions.ts, where they set it',
  changedFlag: 'src/child/upstreamConfig.ts, where the child sets it',
  newConfigKey: 'src/child/upstreamConfig.ts (what the child sets) or the differences table in src/README.md (what it leaves to upstream)',
  removedConfigKey: 'src/child/upstreamConfig.ts, where the child sets it',
  changedCode:
    "the tool's export: its record's `writesStep` (src/core/tools), or the code an export takes as upstream wrote it (src/core/testExport/codeCheck.ts); and the transparency table if the bridge's answer now differs",
};

/**
 * The code a release generates at each step of the same scripted sessions (transparency.ts's generatedCode), against
 * the pinned one's: a tool whose code (or error, for a parameter one release does not take) differs at some step is
 * one change, keyed by the tool, with each distinct before and after once and the steps that showed it.
 */
export function compareCode(pinned: Map<string, { tool: string; code: string }>, candidate: Map<string, { tool: string; code: string }>): UpstreamChange[] {
  const byTool = new Map<string, { steps: string[]; pairs: Set<string>; before: string[]; after: string[] }>();
  for (const step of new Set([...pinned.keys(), ...candidate.keys()])) {
    const [was, now] = [pinned.get(step), candidate.get(step)];
    if (was?.code === now?.code) continue;
    const tool = (now ?? was)!.tool;
    const entry = byTool.get(tool) ?? { steps: [], pairs: new Set<string>(), before: [], after: [] };
    byTool.set(tool, entry);
    entry.steps.push(step);
    const [before, after] = [was?.code ?? '(none)', now?.code ?? '(none)'];
    if (entry.pairs.has(`${before}\u0000${after}`)) continue;
    entry.pairs.add(`${before}\u0000${after}`);
    entry.before.push(before);
    entry.after.push(after);
  }
  return [...byTool].map(([tool, entry]) => ({
    key: `changedCode:${tool}`,
    kind: 'changedCode' as const,
    subject: `${tool} (at ${entry.steps.join('; ')})`,
    before: entry.before.join(' | '),
    after: entry.after.join(' | '),
  }));
}

type Schema = { properties?: Record<string, unknown>; required?: string[] };

export function compareSurfaces(pinned: UpstreamSurface, candidate: UpstreamSurface): UpstreamChange[] {
  const changes: UpstreamChange[] = [];
  const add = (kind: ChangeKind, subject: string, before?: unknown, after?: unknown) =>
    changes.push({
      key: `${kind}:${subject}`,
      kind,
      subject,
      ...(before !== undefined ? { before: typeof before === 'string' ? before : JSON.stringify(before) } : {}),
      ...(after !== undefined ? { after: typeof after === 'string' ? after : JSON.stringify(after) } : {}),
    });
  const was = new Map(pinned.tools.map(tool => [tool.name, tool]));
  const now = new Map(candidate.tools.map(tool => [tool.name, tool]));
  for (const name of was.keys()) if (!now.has(name)) add('removedTool', name);
  for (const [name, tool] of now) {
    const old = was.get(name);
    if (!old) {
      add('newTool', name, undefined, tool.description);
      continue;
    }
    if (old.description !== tool.description) add('changedDescription', name, old.description, tool.description);
    if (stable(old.annotations) !== stable(tool.annotations)) add('changedAnnotations', name, old.annotations, tool.annotations);
    const before = old.inputSchema as Schema;
    const after = tool.inputSchema as Schema;
    const beforeProps = before.properties ?? {};
    const afterProps = after.properties ?? {};
    for (const param of Object.keys(beforeProps)) if (!(param in afterProps)) add('removedParameter', `${name}.${param}`, beforeProps[param]);
    for (const [param, schema] of Object.entries(afterProps)) {
      if (!(param in beforeProps)) add('newParameter', `${name}.${param}`, undefined, schema);
      else if (stable(beforeProps[param]) !== stable(schema)) add('changedParameter', `${name}.${param}`, beforeProps[param], schema);
    }
    const required = (schema: Schema) => [...(schema.required ?? [])].sort().join(',');
    if (required(before) !== required(after)) add('changedRequired', name, required(before), required(after));
  }
  for (const flag of Object.keys(pinned.flags)) if (!(flag in candidate.flags)) add('removedFlag', flag, pinned.flags[flag]);
  for (const [flag, help] of Object.entries(candidate.flags)) {
    if (!(flag in pinned.flags)) add('newFlag', flag, undefined, help);
    else if (pinned.flags[flag] !== help) add('changedFlag', flag, pinned.flags[flag], help);
  }
  const keysBefore = new Set(pinned.configKeys);
  const keysAfter = new Set(candidate.configKeys);
  for (const key of keysBefore) if (!keysAfter.has(key)) add('removedConfigKey', key);
  for (const key of keysAfter) if (!keysBefore.has(key)) add('newConfigKey', key);
  return changes;
}

/** JSON with keys in order: two schemas that differ only in key order are the same. */
function stable(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}
