/**
 * README's settings table, generated from package.json's `contributes.configuration` (descriptions that
 * are `%key%` placeholders resolved from package.nls.json) and from who may set each key (its row's
 * `workspace` rule in src/core/settings/settingsTable.ts), so the table cannot drift from what VS Code shows
 * or the bridge does. test/unit/readmeSettings.test.ts fails when README's copy differs.
 *   node out/test/support/readmeSettings.js           prints the table
 *   node out/test/support/readmeSettings.js --write   rewrites it in README.md, between the markers
 */
import * as fs from 'fs';
import * as path from 'path';
import type { ScopeRule } from '../../src/core/settings/scopePolicy';
import { scopeRuleOf, type SettingKey } from '../../src/core/settings/settingsTable';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const README = path.join(REPO_ROOT, 'README.md');
export const START_MARKER = '<!-- settings:start -->';
export const END_MARKER = '<!-- settings:end -->';

interface Contributed {
  type?: string | string[];
  default?: unknown;
  enum?: unknown[];
  scope?: string;
  description?: string;
  markdownDescription?: string;
}

/** What a workspace's settings may do with a setting, in words, from its rule in the scope policy. */
function workspaceWords(rule: ScopeRule): string {
  if (rule.workspace === 'sets') return 'sets it';
  if (rule.workspace === 'ignored') return '**ignored**: user settings only';
  const { narrowing } = rule;
  switch (narrowing.by) {
    case 'turningOn':
      return 'may only turn it on';
    case 'turningOff':
      return 'may only turn it off';
    case 'lowering':
      return 'may only lower it';
    case 'adding':
      return 'adds to your list';
    case 'within':
      return 'may only narrow your list';
    case 'granting': {
      const narrowest = Object.keys(narrowing.grants).filter(value => !narrowing.grants[value].length);
      return narrowest.length ? `may only choose ${narrowest.map(value => `\`${value}\``).join(' or ')}` : 'may only choose one within yours';
    }
  }
}

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8'));
}

/** A `%key%` placeholder resolved from package.nls.json; anything else as it is. */
function resolve(text: string, nls: Record<string, string>): string {
  const key = /^%(.+)%$/.exec(text)?.[1];
  return key === undefined ? text : (nls[key] ?? text);
}

/** The first sentence: up to the first `.`, `!` or `?` that ends a word outside code. */
export function firstSentence(text: string): string {
  let inCode = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '`') inCode = !inCode;
    else if (!inCode && '.!?'.includes(c) && (i + 1 === text.length || /\s/.test(text[i + 1]))) return text.slice(0, i + 1);
  }
  return text;
}

/** A cell of a markdown table: one line, no bare `|`, setting links (`#playwrightBridge.x#`) as plain names. */
function cell(text: string): string {
  return text
    .replace(/#(playwrightBridge\.[\w.]+)#/g, '$1')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

function defaultOf(value: unknown): string {
  if (value === undefined || value === '') return 'empty';
  return `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

/** The settings table in markdown: one row a setting, in package.json's order. */
export function settingsTable(): string {
  const pkg = readJson('package.json') as {
    contributes: { configuration: { properties: Record<string, Contributed> } | { properties: Record<string, Contributed> }[] };
  };
  const nls = readJson('package.nls.json') as Record<string, string>;
  const configurations = ([] as { properties: Record<string, Contributed> }[]).concat(pkg.contributes.configuration);
  const rows = ['| setting | default | what it does | a workspace |', '|---|---|---|---|'];
  for (const configuration of configurations) {
    for (const [key, setting] of Object.entries(configuration.properties)) {
      const description = firstSentence(cell(resolve(setting.markdownDescription ?? setting.description ?? '', nls)));
      const values = setting.enum ? ` One of ${setting.enum.map(v => `\`${String(v)}\``).join(', ')}.` : '';
      const rule = scopeRuleOf(key.slice(key.indexOf('.') + 1) as SettingKey);
      rows.push(`| \`${key}\` | ${defaultOf(setting.default)} | ${description}${values} | ${workspaceWords(rule)} |`);
    }
  }
  return rows.join('\n');
}

/** What README holds between the markers (without the newlines next to them), or undefined without markers. */
export function readmeTable(readme = fs.readFileSync(README, 'utf8')): string | undefined {
  const start = readme.indexOf(START_MARKER);
  const end = readme.indexOf(END_MARKER);
  if (start < 0 || end < start) return undefined;
  return readme.slice(start + START_MARKER.length, end).trim();
}

/** README with the table between the markers replaced by `table`. */
export function withTable(readme: string, table: string): string {
  const start = readme.indexOf(START_MARKER);
  const end = readme.indexOf(END_MARKER);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START_MARKER} … ${END_MARKER} markers`);
  return `${readme.slice(0, start + START_MARKER.length)}\n${table}\n${readme.slice(end)}`;
}

if (require.main === module) {
  if (process.argv.includes('--write')) {
    const before = fs.readFileSync(README, 'utf8');
    const after = withTable(before, settingsTable());
    if (after !== before) fs.writeFileSync(README, after);
    console.log(after === before ? 'README.md: the settings table is up to date' : 'README.md: the settings table was rewritten');
  } else {
    console.log(settingsTable());
  }
}
