import { SETTINGS_SECTION } from '../contributionIds';
import type { BridgeSettings } from '../settings/settings';
import { toolRecord } from './toolRegistry';
import { toolPatternMatches } from './toolPatterns';

/**
 * Which tools the person lets agents use: readonly mode (observation only) and the allow and deny
 * lists. One rule for every door: the MCP door lists only what is offered, the language-model tools
 * hide the rest (a context key per tool), and a call to anything else gets a refusal that says why.
 */
export interface ToolPolicySettings {
  readonly: boolean;
  /** Names or `*` patterns; empty means every tool. */
  allow: string[];
  /** Names or `*` patterns; a tool matched here is off even if allowed. */
  deny: string[];
}

export const OPEN_POLICY: ToolPolicySettings = { readonly: false, allow: [], deny: [] };

/** The policy the settings describe. */
export function toolPolicyOf(settings: Pick<BridgeSettings, 'readonly' | 'toolsAllow' | 'toolsDeny'>): ToolPolicySettings {
  return { readonly: settings.readonly, allow: settings.toolsAllow, deny: settings.toolsDeny };
}

/**
 * Tools that only look (their `observation` trait): snapshot, screenshot, console, network, the tab list and
 * waiting. They can still save what they see to a file, which readonly mode refuses (see `toolRefusal`).
 */
export function isObservationTool(name: string): boolean {
  return toolRecord(name)?.observation === true;
}

/** The context key that hides one language-model tool (its `when` clause says `!key`). */
export function toolOffContextKey(name: string): string {
  return `${SETTINGS_SECTION}.toolOff.${name}`;
}

/** Is the tool offered at all (whatever its arguments)? */
export function isToolOffered(name: string, policy: ToolPolicySettings): boolean {
  if (policy.readonly && !isObservationTool(name)) return false;
  if (policy.allow.length && !policy.allow.some(pattern => toolPatternMatches(pattern, name))) return false;
  return !policy.deny.some(pattern => toolPatternMatches(pattern, name));
}

/** Why this call may not run, or undefined when it may. */
export function toolRefusal(name: string, args: Record<string, unknown> | undefined, policy: ToolPolicySettings): string | undefined {
  const setting = (key: string) => `${SETTINGS_SECTION}.${key}`;
  if (policy.readonly) {
    if (!isObservationTool(name)) {
      return (
        `${name} is not available: the browser is in readonly mode (${setting('readonly')}), which offers only observation tools ` +
        `(snapshot, screenshot, console, network, the tab list, wait). Nothing was done. Ask the person to turn readonly mode off to act on pages.`
      );
    }
    if (name === 'browser_tabs' && args?.action !== 'list') {
      return (
        `browser_tabs with action "${String(args?.action)}" is not available in readonly mode (${setting('readonly')}): ` +
        'only action "list" is. Nothing was done.'
      );
    }
    if (args?.filename !== undefined) {
      return `${name} cannot save to a file in readonly mode (${setting('readonly')}). Call it without "filename" to get the result inline.`;
    }
  }
  if (policy.allow.length && !policy.allow.some(pattern => toolPatternMatches(pattern, name))) {
    return `${name} is not available: it is not in the allowed tools (${setting('tools.allow')}). Nothing was done.`;
  }
  const denied = policy.deny.find(pattern => toolPatternMatches(pattern, name));
  if (denied) return `${name} is not available: the person turned it off (${setting('tools.deny')} holds "${denied}"). Nothing was done.`;
  return undefined;
}
