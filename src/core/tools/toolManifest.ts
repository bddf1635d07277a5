import { Tool } from '@modelcontextprotocol/sdk/types.js';
import { CapabilityId } from '../settings/capabilities';
import { SETTINGS_SECTION } from '../contributionIds';
import { Exposure } from '../settings/settings';
import { toolOffContextKey } from './toolPolicy';
import { TOOL_RECORDS, toolRecord } from './toolRegistry';

/** One entry of `contributes.languageModelTools`, as VS Code reads it. */
export interface ManifestTool {
  name: string;
  displayName: string;
  toolReferenceName: string;
  canBeReferencedInPrompt: boolean;
  userDescription: string;
  modelDescription: string;
  tags: string[];
  when?: string;
  inputSchema: Record<string, unknown>;
}

export function capabilityWhenClause(capability: CapabilityId): string {
  return `config.${SETTINGS_SECTION}.capabilities.${capability}`;
}

/** Hides every language-model tool while chat is to see the browser through the MCP server only. */
export const EXPOSURE_WHEN_CLAUSE = `config.${SETTINGS_SECTION}.exposure != 'mcp'`;

/**
 * Which capability group each tool belongs to, from the tool lists of a child with no optional
 * capability and of children with exactly one. Tools of the default set map to undefined.
 */
export function capabilityOfTools(
  defaultNames: Iterable<string>,
  namesByCapability: Map<CapabilityId, Iterable<string>>,
): Map<string, CapabilityId | undefined> {
  const result = new Map<string, CapabilityId | undefined>();
  for (const name of defaultNames) result.set(name, undefined);
  for (const [capability, names] of namesByCapability) {
    for (const name of names) if (!result.has(name)) result.set(name, capability);
  }
  return result;
}

/** The manifest entry for one tool of the child; the schema is kept as the child publishes it. */
export function manifestEntry(tool: Tool, capability: CapabilityId | undefined): ManifestTool {
  const title = tool.annotations?.title ?? tool.title ?? tool.name;
  const { $schema: _ignored, ...inputSchema } = tool.inputSchema as Record<string, unknown>;
  const entry: ManifestTool = {
    name: tool.name,
    displayName: title,
    toolReferenceName: tool.name,
    canBeReferencedInPrompt: true,
    userDescription: title,
    modelDescription: tool.description ?? title,
    tags: ['playwright', 'browser', ...(capability ? [`playwright-${capability}`] : [])],
    inputSchema,
  };
  // The last clause lets the tool policy (readonly mode, allow/deny lists) hide it; see toolPolicyKeys.
  const off = `!${toolOffContextKey(tool.name)}`;
  entry.when = capability ? `${capabilityWhenClause(capability)} && ${EXPOSURE_WHEN_CLAUSE} && ${off}` : `${EXPOSURE_WHEN_CLAUSE} && ${off}`;
  return entry;
}

export function buildManifest(tools: Tool[], capabilities: Map<string, CapabilityId | undefined>): ManifestTool[] {
  return tools.map(tool => manifestEntry(tool, capabilities.get(tool.name))).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Is a manifest tool offered while these capability groups are on and this exposure is chosen?
 * Mirrors VS Code's evaluation of the `when` clauses this module writes.
 */
export function isToolEnabled(entry: Pick<ManifestTool, 'when'>, enabledCapabilities: readonly string[], exposure: Exposure = 'languageModelTools'): boolean {
  if (!entry.when) return true;
  const exposed = !entry.when.includes(EXPOSURE_WHEN_CLAUSE) || exposure !== 'mcp';
  const capability = capabilityOf(entry);
  return exposed && (capability === undefined || enabledCapabilities.includes(capability));
}

/** Every difference between two manifests, one line each: empty when they agree. */
export function diffManifests(expected: ManifestTool[], actual: ManifestTool[]): string[] {
  const differences: string[] = [];
  const actualByName = new Map(actual.map(entry => [entry.name, entry]));
  const expectedNames = new Set(expected.map(entry => entry.name));
  for (const entry of expected) {
    const other = actualByName.get(entry.name);
    if (!other) {
      differences.push(`${entry.name}: published by the child but missing from package.json`);
      continue;
    }
    for (const key of Object.keys({ ...entry, ...other }) as (keyof ManifestTool)[]) {
      if (stableJson(entry[key]) !== stableJson(other[key])) differences.push(`${entry.name}: ${key} differs`);
    }
  }
  for (const entry of actual) {
    if (!expectedNames.has(entry.name)) differences.push(`${entry.name}: in package.json but not published by the child`);
  }
  return differences;
}

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

/** The capability group a manifest tool needs, from its `when` clause; undefined for default tools. */
export function capabilityOf(entry: Pick<ManifestTool, 'when'>): string | undefined {
  return new RegExp(`config\\.${SETTINGS_SECTION}\\.capabilities\\.(\\w+)`).exec(entry.when ?? '')?.[1];
}

/**
 * Why a capability tool cannot run, when the running browser server lacks its group: the setting
 * is off, or it was turned on after the server started.
 */
export function capabilityHint(
  entry: Pick<ManifestTool, 'name' | 'when'>,
  enabledInSettings: readonly string[],
  enabledInRunningChild: readonly string[] | undefined,
): string | undefined {
  const capability = capabilityOf(entry);
  if (!capability) return undefined;
  const setting = `${SETTINGS_SECTION}.capabilities.${capability}`;
  if (!enabledInSettings.includes(capability)) {
    return `${entry.name} is one of the ${capability} tools, which are turned off. Turn on the setting ${setting} to use it.`;
  }
  if (enabledInRunningChild && !enabledInRunningChild.includes(capability)) {
    return `${entry.name} needs the ${capability} tools, turned on after the browser started: run "Playwright Bridge: Restart Browser" to apply ${setting}.`;
  }
  return undefined;
}

/**
 * Where a manifest (the child's tools with their groups, and the host's) and the tool registry disagree, one
 * line each: a tool with no record, a record of no tool, a group that differs. The generator refuses to write
 * a manifest the registry does not describe, so a new upstream tool cannot arrive without its traits.
 */
export function registryDifferences(manifest: readonly Pick<ManifestTool, 'name' | 'when'>[]): string[] {
  const differences: string[] = [];
  const names = new Set(manifest.map(entry => entry.name));
  for (const entry of manifest) {
    const record = toolRecord(entry.name);
    if (!record) differences.push(`${entry.name}: published, but has no record in src/core/tools/toolRegistry.ts`);
    else if ((record.capability ?? undefined) !== capabilityOf(entry)) {
      differences.push(`${entry.name}: the registry says capability ${record.capability ?? 'none'}, the child ${capabilityOf(entry) ?? 'none'}`);
    }
  }
  for (const record of TOOL_RECORDS) if (!names.has(record.name)) differences.push(`${record.name}: in the registry, but not published`);
  return differences;
}
