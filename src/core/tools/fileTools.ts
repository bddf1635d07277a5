/**
 * Which tools touch named files, and how the bridge publishes and resolves them. Upstream marks
 * several tools read-only although they write the file named by `filename`, and resolves a relative
 * `filename` against the workspace folder: VS Code then ran them without asking, writing into the
 * workspace. The bridge publishes them as writers and puts relative names in its output folder.
 */
import * as path from 'path';
import { Tool } from '@modelcontextprotocol/sdk/types.js';
import { toolRecord } from './toolRegistry';

/** Tools whose `filename` names a file they read (their `filename` trait); every other tool with a `filename` writes it. */
function readsItsFilename(toolName: string): boolean {
  return toolRecord(toolName)?.filename === 'reads';
}

const UPSTREAM_RELATIVE = /Relative file names are resolved against the workspace root\./;
const BRIDGE_RELATIVE = 'Relative file names are resolved against the Playwright Bridge output folder; the person is asked before any file is written.';
/** For the tools that read their `filename`: where relative names point, and run code's rule for code and file together. */
const BRIDGE_RELATIVE_READ = 'Relative file names are resolved against the Playwright Bridge output folder, where the other tools write their files.';
const UPSTREAM_BOTH = /If both code and filename are provided, code will be ignored\./;
const BRIDGE_BOTH = 'Give code or filename, not both: a call with both is refused.';

/** True for a tool that writes the file its `filename` argument names. */
export function writesNamedFile(tool: Tool): boolean {
  const properties = (tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {};
  return 'filename' in properties && !readsItsFilename(tool.name);
}

/** Tools that hand the local files their `paths` name to the page (their `readsPaths` trait). */
function readsItsPaths(toolName: string): boolean {
  return toolRecord(toolName)?.readsPaths === true;
}

/** A call's `filename`, whichever way the tool uses it. */
function filenameOf(args: Record<string, unknown> | undefined): string | undefined {
  const filename = args?.filename;
  return typeof filename === 'string' && filename.trim() !== '' ? filename : undefined;
}

/** The `filename` a call reads, which the bridge resolves like a written one (relative: in the output folder). */
export function namedFileRead(toolName: string, args: Record<string, unknown> | undefined): string | undefined {
  return readsItsFilename(toolName) ? filenameOf(args) : undefined;
}

/** The file a call will write, when it names one. */
export function namedFileWritten(toolName: string, args: Record<string, unknown> | undefined): string | undefined {
  return readsItsFilename(toolName) ? undefined : filenameOf(args);
}

/** True for a tool that reads local files it is given by name (its `paths`, or a `filename` it reads). */
export function readsLocalFiles(toolName: string): boolean {
  return readsItsPaths(toolName) || readsItsFilename(toolName);
}

/** Every local file a call reads, as named: its `paths`, or the `filename` it reads. */
export function localFilesRead(toolName: string, args: Record<string, unknown> | undefined): string[] {
  const named = namedFileRead(toolName, args);
  return [...namedPathsRead(toolName, args), ...(named ? [named] : [])];
}

/** The local files a call hands to the page (`browser_file_upload`, `browser_drop`), as named. */
export function namedPathsRead(toolName: string, args: Record<string, unknown> | undefined): string[] {
  const paths = args?.paths;
  if (!readsItsPaths(toolName) || !Array.isArray(paths)) return [];
  return paths.filter((p): p is string => typeof p === 'string');
}

/**
 * The call's arguments with every file name it reads or writes resolved by one rule (relative: in
 * the output folder, where writers put files and readers find them; upstream would use the
 * workspace root), or the refusal of a name that climbs out of the folder.
 */
export function resolveNamedFiles(
  toolName: string,
  args: Record<string, unknown> | undefined,
  outputDir: string,
): { args: Record<string, unknown> | undefined } | { error: string } {
  let resolvedArgs = args;
  // Spaces only: upstream would take it as a name and write a file so named in the workspace root.
  if (typeof args?.filename === 'string' && args.filename !== '' && args.filename.trim() === '') {
    return { error: "The filename is blank (spaces only). Give a file name, or leave filename out for the tool's own name." };
  }
  // Read or written, a `filename` resolves by the same rule.
  const named = filenameOf(args);
  if (named !== undefined) {
    const target = resolveWrittenFile(named, outputDir);
    if ('error' in target) return target;
    resolvedArgs = { ...resolvedArgs, filename: target.path };
  }
  const paths = namedPathsRead(toolName, args);
  if (paths.length) {
    const targets = paths.map(p => resolveWrittenFile(p, outputDir));
    const refused = targets.find((t): t is { error: string } => 'error' in t);
    if (refused) return refused;
    resolvedArgs = { ...resolvedArgs, paths: targets.map(t => (t as { path: string }).path) };
  }
  return { args: resolvedArgs };
}

/**
 * The tool as the bridge publishes it: a tool that writes a named file is never read-only (so MCP
 * clients ask first), and its description says where relative names go.
 */
export function publishTool(tool: Tool): Tool {
  if (!writesNamedFile(tool)) return readsItsFilename(tool.name) ? withReaderDescription(tool) : tool;
  const schema = tool.inputSchema as { properties: Record<string, { description?: string }> };
  const filename = schema.properties.filename;
  return {
    ...tool,
    inputSchema: {
      ...tool.inputSchema,
      properties: {
        ...schema.properties,
        filename: { ...filename, ...(filename.description ? { description: filename.description.replace(UPSTREAM_RELATIVE, BRIDGE_RELATIVE) } : {}) },
      },
    },
    annotations: { ...tool.annotations, readOnlyHint: false },
  };
}

/** A reader's `filename` says where the bridge looks for a relative name (and run code's both-given rule). */
function withReaderDescription(tool: Tool): Tool {
  const schema = tool.inputSchema as { properties?: Record<string, { description?: string }> };
  const filename = schema.properties?.filename;
  if (!filename?.description) return tool;
  const description = filename.description.replace(UPSTREAM_RELATIVE, BRIDGE_RELATIVE_READ).replace(UPSTREAM_BOTH, BRIDGE_BOTH);
  return { ...tool, inputSchema: { ...tool.inputSchema, properties: { ...schema.properties, filename: { ...filename, description } } } };
}

/** True when `file` is below `dir` (not `dir` itself), by their paths as written. */
export function isInside(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return !!relative && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/**
 * Where a written file goes: a relative name lands in the output folder (never the workspace root),
 * and may not climb out of it; an absolute one stays as given (the confirmation names it).
 */
export function resolveWrittenFile(filename: string, outputDir: string): { path: string } | { error: string } {
  if (path.isAbsolute(filename)) return { path: path.normalize(filename) };
  const resolved = path.resolve(outputDir, filename);
  if (!isInside(outputDir, resolved)) {
    return { error: `The relative filename "${filename}" leaves the output folder (${outputDir}). Give a name inside it, or an absolute path.` };
  }
  return { path: resolved };
}
