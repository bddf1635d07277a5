// @ts-check
/**
 * Checks over the source's syntax trees that need more than one file at a time, shared by the lint rules
 * (lintRules.cjs, which fail on any) and the bench's call-path figures (test/bench/callPath.ts, which count):
 * - the import graph of src (every `import`, `export … from`, `import()` and `require()` with a relative
 *   specifier, type-only ones included: a loop of types is still two files that cannot be read apart), and
 *   its loops;
 * - tool-name literals: a string literal that names a tool (`browser_…`, `bridge_…`), allowed only in the
 *   tools folders, where what a tool is and does lives.
 * Plain JavaScript (CommonJS), so ESLint can load it with the rules.
 */
const fs = require('fs');
const path = require('path');
const ts = require('typescript');

/** Where a tool's name may be written: its record and the files of what it does specially, on each side. */
const TOOL_FOLDERS = [path.join('core', 'tools'), path.join('child', 'tools')];
/** A tool's name as upstream and the bridge write them. */
const TOOL_NAME = /^(?:browser|bridge)_[a-z]+(?:_[a-z]+)*$/;

/** The module specifiers a TypeScript file imports, read by TypeScript's own scanner. @param {string} file */
function specifiersOf(file) {
  const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map(entry => entry.fileName);
}

/** The file a relative specifier names, or undefined (a package, or a file that is not there). @param {string} from @param {string} specifier */
function resolved(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts'), base]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Every .ts file below a folder. @param {string} dir @returns {string[]} */
function tsFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The import graph of src: each file and the files it imports. @param {string} repoRoot @returns {Map<string, string[]>} */
function importGraph(repoRoot) {
  const graph = new Map();
  for (const file of tsFiles(path.join(repoRoot, 'src'))) {
    graph.set(file, specifiersOf(file).map(s => resolved(file, s)).filter(f => f !== undefined));
  }
  return graph;
}

/**
 * The import loops of a graph: each strongly connected set of two or more files (or a file importing itself),
 * as its files relative to `root`, sorted. Tarjan's algorithm.
 * @param {Map<string, string[]>} graph @param {string} root @returns {string[][]}
 */
function importLoops(graph, root) {
  let index = 0;
  /** @type {Map<string, number>} */ const order = new Map();
  /** @type {Map<string, number>} */ const low = new Map();
  /** @type {string[]} */ const stack = [];
  const onStack = new Set();
  /** @type {string[][]} */ const loops = [];
  /** @param {string} file */
  const visit = file => {
    order.set(file, index);
    low.set(file, index++);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) ?? 0, order.get(next) ?? 0));
      }
    }
    if (low.get(file) !== order.get(file)) return;
    /** @type {string[]} */ const members = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      members.push(member);
      if (member === file) break;
    }
    if (members.length > 1 || (graph.get(file) ?? []).includes(file)) loops.push(members.map(m => path.relative(root, m)).sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return loops.sort((a, b) => a[0].localeCompare(b[0]));
}

/** Whether a file under src may write tool names. @param {string} repoRoot @param {string} file */
function mayNameTools(repoRoot, file) {
  const relative = path.relative(path.join(repoRoot, 'src'), file);
  return TOOL_FOLDERS.some(folder => relative.startsWith(folder + path.sep));
}

/**
 * The tool-name literals of a source file outside the tools folders, as `line: 'name'`, read off its syntax tree
 * (string literals and template literals without substitutions; comments are not in the tree).
 * @param {string} repoRoot @param {string} file @returns {string[]}
 */
function toolNameLiterals(repoRoot, file) {
  if (mayNameTools(repoRoot, file)) return [];
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  /** @type {string[]} */ const found = [];
  /** @param {import('typescript').Node} node */
  const visit = node => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && TOOL_NAME.test(node.text)) {
      found.push(`${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: '${node.text}'`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

module.exports = { TOOL_FOLDERS, TOOL_NAME, importGraph, importLoops, mayNameTools, toolNameLiterals, tsFiles };
