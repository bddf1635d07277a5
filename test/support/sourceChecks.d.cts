// Types of sourceChecks.cjs for the TypeScript that loads it (the bench's call-path figures).
export const TOOL_FOLDERS: string[];
export const TOOL_NAME: RegExp;
export function importGraph(repoRoot: string): Map<string, string[]>;
export function importLoops(graph: Map<string, string[]>, root: string): string[][];
export function mayNameTools(repoRoot: string, file: string): boolean;
export function toolNameLiterals(repoRoot: string, file: string): string[];
export function tsFiles(dir: string): string[];
