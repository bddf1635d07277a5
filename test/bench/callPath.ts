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
 * - toolNameLiteralsOutsideTools: string literals naming a tool outside the tools folders (src/core/tools,
 *   src/child/tools), read off the syntax tree: a comparison or a list by name anywhere else. Target 0; lint fails on one.
 * - importCycles: the import loops of src (type-only imports too), read off TypeScript's scanner. Target 0; lint fails on one.
 * Both come from test/support/sourceChecks.cjs, which the lint rules use too.
 * Each count comes with the files it counted, so a reader sees where they are.
 */
import * as fs from 'fs';
import * as path from 'path';
import { REPO_ROOT } from '../support/realBridge';

// Plain JavaScript shared with the lint rules, loaded from the source tree (it is not transpiled into out/).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sourceChecks: typeof import('../support/sourceChecks.cjs') = require(path.join(REPO_ROOT, 'test', 'support', 'sourceChecks.cjs'));

const SRC = path.join(REPO_ROOT, 'src');
const HOST_ENTRIES = ['vscode/languageModelTools.ts', 'core/mcpDoor/mcpEndpoint.ts', 'core/supervision/supervisor.ts'];
const CHILD_ENTRIES = ['child/callRouter.ts'];

const ERROR_RESULT = /\bisError\s*:\s*true\b|\bisError\s*=\s*true\b/;
/**
 * A content array with something in it, or a part pushed into, put before or set in one; or a language-model
 * result built from a literal list (`new LanguageModelToolResult([new LanguageModelTextPart(...)])`), which is a
 * result written outside the pipeline. The language-model door's conversion maps the finished result's parts.
 */
const CONTENT_WRITE =
  /\bcontent\s*:\s*\[\s*[^\]\s]|\bcontent\.(?:push|unshift|splice)\(|\bcontent\[\w+\]\s*=[^=]|\bparts\[\w+\]\s*=[^=]|\bparts\.unshift\(|LanguageModelToolResult\(\s*\[/;

export interface CallPathFigures {
  hostFiles: number;
  childFiles: number;
  refusalSites: number;
  resultEditSites: number;
  toolNameLiteralsOutsideTools: number;
  importCycles: number;
  where: { refusalSites: string[]; resultEditSites: string[]; toolNameLiteralsOutsideTools: string[]; importCycles: string[][] };
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
  return sourceFiles()
    .filter(file => {
      const code = fs
        .readFileSync(path.join(SRC, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      return pattern.test(code);
    })
    .sort();
}

/** Tool-name literals outside the tools folders, as `file line: 'name'` (the webview included). */
export function toolNameLiteralsOutsideTools(): string[] {
  return sourceChecks
    .tsFiles(SRC)
    .flatMap(file => sourceChecks.toolNameLiterals(REPO_ROOT, file).map(found => `${path.relative(SRC, file)} ${found}`))
    .sort();
}

export function measureCallPath(): CallPathFigures {
  const host = [...closure(HOST_ENTRIES)].filter(file => !file.startsWith(`child${path.sep}`));
  const child = closure(CHILD_ENTRIES);
  const refusalSites = filesMatching(ERROR_RESULT);
  const resultEditSites = filesMatching(CONTENT_WRITE);
  const literals = toolNameLiteralsOutsideTools();
  const loops = sourceChecks.importLoops(sourceChecks.importGraph(REPO_ROOT), SRC);
  return {
    hostFiles: host.length,
    childFiles: child.size,
    refusalSites: refusalSites.length,
    resultEditSites: resultEditSites.length,
    toolNameLiteralsOutsideTools: literals.length,
    importCycles: loops.length,
    where: { refusalSites, resultEditSites, toolNameLiteralsOutsideTools: literals, importCycles: loops },
  };
}

if (require.main === module) console.log(JSON.stringify({ callPath: measureCallPath() }, null, 2));
