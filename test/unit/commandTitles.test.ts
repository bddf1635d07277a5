/**
 * Command titles by VS Code's conventions ("Category: Verb Noun", as the Command Palette lists them): one
 * category for all, a title that starts with a verb, in Title Case, without articles; "…" only where the
 * command asks for more before it acts.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { REPO_ROOT } from '../support/realBridge';

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  contributes: { commands: { command: string; title: string; category?: string }[] };
};
const nls = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
const text = (value: string) => (/^%(.+)%$/.test(value) ? nls[value.slice(1, -1)] : value);

const VERBS = new Set([
  'Restart',
  'Show',
  'Install',
  'Copy',
  'Open',
  'Start',
  'Save',
  'Take',
  'Hand',
  'Set',
  'Choose',
  'Delete',
  'List',
  'Export',
  'Share',
  'Revoke',
  'Debug',
]);
/** Short words VS Code keeps lowercase inside a title. */
const SMALL = new Set(['of', 'as', 'in', 'to', 'for', 'and', 'or', 'with', 'from', 'on']);
/** Commands that ask for something (a name, a file, a choice) before they act. */
const ASKS = new Set([
  'setSecret',
  'chooseSecretSites',
  'deleteSecret',
  'saveLoginProfile',
  'listLoginProfiles',
  'deleteLoginProfile',
  'setConnectionCredentials',
  'saveNetworkHar',
  'shareCdp',
]);

describe("command titles follow VS Code's conventions", () => {
  for (const command of pkg.contributes.commands) {
    const title = text(command.title);
    it(`${command.command}: "${title}"`, () => {
      assert.strictEqual(text(command.category ?? ''), 'Playwright Bridge', 'one category, shown before the title');
      const words = title.replace(/…$/, '').split(' ');
      assert.ok(VERBS.has(words[0]), `starts with a verb: ${title}`);
      for (const word of words.slice(1)) {
        assert.ok(!['a', 'an', 'the'].includes(word.toLowerCase()), `no articles: ${title}`);
        assert.ok(SMALL.has(word) || /^[A-Z0-9]/.test(word), `Title Case ("${word}"): ${title}`);
      }
      const asks = ASKS.has(command.command.replace('playwrightBridge.', ''));
      assert.strictEqual(title.endsWith('…'), asks, asks ? `asks before it acts, so it ends with "…": ${title}` : `acts at once, so no "…": ${title}`);
    });
  }
});
