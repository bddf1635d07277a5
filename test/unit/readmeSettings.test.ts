import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { firstSentence, README, readmeTable, settingsTable, withTable } from '../support/readmeSettings';
import { TABLE_ROW_NAMES } from '../support/transparency';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const SKIPPED_FOLDERS = new Set(['node_modules', 'out', 'dist', '.git', '.test-artifacts', '.vscode-test']);

/** Every README.md of the repository (not of its dependencies or build output). */
function readmes(dir = REPO_ROOT): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap(entry => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : readmes(full);
      return entry.name === 'README.md' ? [full] : [];
    })
    .sort();
}

/** Markdown without its code (fenced blocks and inline spans), so only real links are left. */
function withoutCode(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, 'code');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes; repeats get -1, -2. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of markdown.replace(/^```[\s\S]*?^```/gm, '').split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*_]/g, '');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count ? `${slug}-${count}` : slug);
  }
  return anchors;
}

describe('README: the settings table is generated, every relative link resolves', () => {
  it("README's settings table is the one package.json makes", () => {
    const table = readmeTable();
    assert.ok(table !== undefined, 'README.md has the markers <!-- settings:start --> and <!-- settings:end -->');
    assert.strictEqual(
      table,
      settingsTable(),
      "README.md's settings table differs from package.json: run `node out/test/support/readmeSettings.js --write` (after `node esbuild.mjs --tests`)",
    );
  });

  it("rewrites only what lies between the markers, and takes a description's first sentence", () => {
    assert.strictEqual(
      withTable('a\n<!-- settings:start -->\nold\n<!-- settings:end -->\nb', 'new'),
      'a\n<!-- settings:start -->\nnew\n<!-- settings:end -->\nb',
    );
    assert.strictEqual(firstSentence('Runs `a.b` here. Then more.'), 'Runs `a.b` here.');
    assert.strictEqual(firstSentence('No end'), 'No end');
  });

  it('README stays short for the Marketplace and names the two commands of a clone', () => {
    const readme = fs.readFileSync(README, 'utf8');
    const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
    assert.ok(lines <= 300, `README.md has ${lines} lines; at most 300 (contributor material goes to src/README.md, test/README.md, test/bench/README.md)`);
    for (const command of ['`npm start`', '`npm test`']) assert.ok(readme.includes(command), `README.md documents ${command}`);
  });

  it('README names commands by their titles in the Command Palette ("Playwright Bridge: Restart Browser")', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      contributes: { commands: { title: string; category?: string }[] };
    };
    const nls = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const text = (value: string) => (/^%(.+)%$/.exec(value) ? nls[value.slice(1, -1)] : value);
    const bare = (title: string) => title.replace(/…$/, '');
    const titles = new Set(manifest.contributes.commands.map(c => bare(`${text(c.category ?? '')}: ${text(c.title)}`)));
    const named = [...fs.readFileSync(README, 'utf8').matchAll(/\*\*(Playwright Bridge:[^*]+)\*\*/g)].map(m => bare(m[1].replace(/\s+/g, ' ').trim()));
    assert.ok(named.length > 0, 'README names some commands');
    assert.deepStrictEqual(
      named.filter(title => !titles.has(title)),
      [],
      `command titles: ${[...titles].join(', ')}`,
    );
  });

  it('every relative link and image of every README points to a file that exists, and to a heading there', () => {
    const broken: string[] = [];
    for (const file of readmes()) {
      const text = fs.readFileSync(file, 'utf8');
      for (const match of withoutCode(text).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        const target = match[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const [relative, anchor] = target.split('#');
        const resolved = relative ? path.resolve(path.dirname(file), decodeURIComponent(relative)) : file;
        const where = `${path.relative(REPO_ROOT, file)}: ${target}`;
        if (!fs.existsSync(resolved)) {
          broken.push(`${where} (no such file)`);
          continue;
        }
        if (anchor && resolved.endsWith('.md') && !anchorsOf(fs.readFileSync(resolved, 'utf8')).has(anchor)) broken.push(`${where} (no such heading)`);
      }
    }
    assert.deepStrictEqual(broken, []);
  });

  it('the "Differences from upstream" table has a row for each name the transparency test normalizes under', () => {
    const names: readonly string[] = TABLE_ROW_NAMES;
    assert.ok(names.length > 0, 'test/support/transparency.ts lists the rows it normalizes under');
    const table = fs.readFileSync(path.join(REPO_ROOT, 'src', 'README.md'), 'utf8');
    for (const name of names) assert.ok(table.includes(`| **${name}** |`), `src/README.md's "Differences from upstream" table has the row **${name}**`);
  });
});
