import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ALL_CAPABILITIES, CapabilityId } from '../core/settings/capabilities';
import { buildChildConfig, childSpawnSpec } from '../core/childProcess/childConfig';
import { startChild } from '../core/childProcess/childProcess';
import { buildManifest, capabilityOfTools, ManifestTool } from '../core/tools/toolManifest';
import { DEFAULT_SETTINGS } from '../core/settings/settings';
import { Tool } from '@modelcontextprotocol/sdk/types.js';

/** Lists the tools of a real child started with the given capability groups (no browser is launched). */
async function listChildTools(childScript: string, capabilities: CapabilityId[], scratch: string): Promise<Tool[]> {
  const settings = { ...DEFAULT_SETTINGS, browser: 'chromium' as const, profile: 'isolated' as const, capabilities };
  const config = buildChildConfig(settings, { storageDir: scratch, workspaceFolders: [] });
  const spec = childSpawnSpec(config, { execPath: process.execPath, childScript, baseEnv: process.env, tmpDir: scratch });
  fs.mkdirSync(spec.cwd, { recursive: true });
  const ignore = () => undefined;
  const child = await startChild(spec, { onExit: ignore, onToolsChanged: ignore, onBrowserState: ignore, onObservation: ignore, onStderr: ignore });
  try {
    return await child.listTools();
  } finally {
    await child.dispose();
  }
}

/**
 * The `contributes.languageModelTools` the pinned child implies: every tool with every capability
 * on, each tagged with the capability group that brings it.
 */
export async function collectToolManifest(childScript: string): Promise<ManifestTool[]> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-manifest-'));
  try {
    const all = await listChildTools(childScript, [...ALL_CAPABILITIES], scratch);
    const defaults = await listChildTools(childScript, [], scratch);
    const byCapability = new Map<CapabilityId, string[]>();
    for (const capability of ALL_CAPABILITIES) {
      byCapability.set(
        capability,
        (await listChildTools(childScript, [capability], scratch)).map(t => t.name),
      );
    }
    const owners = capabilityOfTools(
      defaults.map(t => t.name),
      byCapability,
    );
    const unknown = all.filter(t => !owners.has(t.name)).map(t => t.name);
    if (unknown.length) throw new Error(`Tools that no single capability group brings: ${unknown.join(', ')}`);
    return buildManifest(all, owners);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
