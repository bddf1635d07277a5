// Types of lintRules.cjs for the TypeScript that imports it (lint.ts and the layer rule's test).
import type { Linter, Rule } from 'eslint';

export const LAYERS: Record<string, readonly string[]>;
export function importZonesRule(repoRoot: string): Rule.RuleModule;
export function lintConfig(repoRoot: string): Linter.Config[];
