/**
 * How many source files one tool call passes through, and how many write its result, counted over the
 * source as it is (so the figure stays true as code moves): `npm run bench` writes it as `callPath`, and
 * `node out/test/bench/callPath.js` prints it alone.
 *
 * - hostFiles: the files under src/ (not src/child) that the host's call path loads: the two doors
 *   (`vscode/languageModelTools.ts`, `core/mcpDoor/mcpEndpoint.ts`) and the supervisor, with every file they
 *   import for its values, transitively (`import type` carries no code and is not followed).
 * - childFiles: the same from the child's call handler (`child/callRouter.ts`), the files the child loads.
 * - refusalSites: files that turn a refusal into an error result (`isError: true` written in a result).
 * - resultEditSites: files that write a result's content (a part put in, before or after), or build a result of
 *   their own (an MCP result with content in it, a language-model result from a literal list of parts).
 * - toolListsByHand: places outside the tool registry (core/tools/toolRegistry.ts) that list tool names: a Set,
 *   array or switch naming two or more tools. What a tool is lives in its record; target 0.
 * Each count comes with the files it counted, so a reader sees where they are.
 */
import * as fs from 'fs';
import * as path from 'path';
import { REPO_ROOT } from '../support/realBridge';

const SRC = path.join(REPO_ROOT, 'src');
const HOST_ENTRIES = ['vscode/languageModelTools.ts', 'core/mcpDoor/mcpEndpoint.ts', 'core/supervision/supervisor.ts'];
const CHILD_ENTRIES = ['child/callRouter.ts'];

const ERROR_RESULT = /\bisError\s*:\s*true\b|\bisError\s*=\s*true\b/;
/**
 * A content array with something in it, or a part pushed into, put before or set in one; or a language-model
 * result built from a literal list (`new LanguageModelToolResult([new LanguageModelTextPart(...)])`), which is a
 * result written outside the pipeline. The language-model door's conversion maps the finished result's parts.
 */
const CONTENT_WRITE = /\bcontent\s*:\s*\[\s*[^\]\s]|\bcontent\.(?:push|unshift|splice)\(|\bcontent\[\w+\]\s*=[^=]|\bparts\[\w+\]\s*=[^=]|\bparts\.unshift\(|LanguageModelToolResult\(\s*\[/;

/** A quoted tool name. */
const TOOL_NAME = /'(?:browser|bridge)_[a-z_]+'/g;
const REGISTRY = path.join('core', 'tools', 'toolRegistry.ts');

export interface CallPathFigures {
  hostFiles: number;
  childFiles: number;
  refusalSites: number;
  resultEditSites: number;
  toolListsByHand: number;
  where: { refusalSites: string[]; resultEditSites: string[]; toolListsByHand: string[] };
}

/** Relative imports of a file that carry values (type-only imports are skipped), as paths under src/. */
function valueImports(file: string): string[] {
  const text = fs.readFileSync(path.join(SRC, file), 'utf8');
  const found: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?[^;]*?from\s+'(\.[^']+)'/gm;
  for (let match; (match = statement.exec(text));) {
    if (match[2]) continue;
    const target = resolveModule(path.dirname(file), match[3]);
    if (target) found.push(target);
  }
  return found;
}

function resolveModule(fromDir: string, specifier: string): string | undefined {
  const base = path.join(fromDir, specifier.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(path.join(SRC, candidate))) return path.normalize(candidate);
  }
  return undefined;
}

function closure(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...valueImports(file));
  }
  return seen;
}

function sourceFiles(dir = ''): string[] {
  return fs.readdirSync(path.join(SRC, dir), { withFileTypes: true }).flatMap(entry => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return relative === 'webview' ? [] : sourceFiles(relative);
    return entry.name.endsWith('.ts') ? [relative] : [];
  });
}

/** Files whose code (comments left out) matches. */
function filesMatching(pattern: RegExp): string[] {
  return sourceFiles().filter(file => {
    const code = fs.readFileSync(path.join(SRC, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    return pattern.test(code);
  }).sort();
}

/** Code of a source file with its comments left out. */
function codeOf(file: string): string {
  return fs.readFileSync(path.join(SRC, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

/**
 * Lists of tool names outside the registry, as `file: what` (webview included): a bracketed list (array, Set)
 * holding two or more tool names, or a switch with two or more `case '<tool>'`.
 */
export function toolListsByHand(): string[] {
  const found: string[] = [];
  const files = [...sourceFiles(), ...sourceFilesOf('webview')];
  for (const file of files.filter(f => f !== REGISTRY)) {
    const code = codeOf(file);
    for (const list of code.match(/\[[^[\]]*\]/g) ?? []) {
      const names = list.match(TOOL_NAME) ?? [];
      if (names.length >= 2) found.push(`${file}: [${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}]`);
    }
    const cases = code.match(/\bcase\s+'(?:browser|bridge)_[a-z_]+'/g) ?? [];
    if (cases.length >= 2) found.push(`${file}: switch of ${cases.length} tool names`);
  }
  return found.sort();
}

function sourceFilesOf(dir: string): string[] {
  return fs.readdirSync(path.join(SRC, dir), { withFileTypes: true }).flatMap(entry => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFilesOf(relative);
    return entry.name.endsWith('.ts') ? [relative] : [];
  });
}

export function measureCallPath(): CallPathFigures {
  const host = [...closure(HOST_ENTRIES)].filter(file => !file.startsWith(`child${path.sep}`));
  const child = closure(CHILD_ENTRIES);
  const refusalSites = filesMatching(ERROR_RESULT);
  const resultEditSites = filesMatching(CONTENT_WRITE);
  const lists = toolListsByHand();
  return {
    hostFiles: host.length,
    childFiles: child.size,
    refusalSites: refusalSites.length,
    resultEditSites: resultEditSites.length,
    toolListsByHand: lists.length,
    where: { refusalSites, resultEditSites, toolListsByHand: lists },
  };
}

if (require.main === module) console.log(JSON.stringify({ callPath: measureCallPath() }, null, 2));
