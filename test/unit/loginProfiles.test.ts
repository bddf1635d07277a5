import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LoginProfiles, MAX_PROFILE_BYTES } from '../../src/core/profiles/loginProfiles';
import { suggestedProfileName } from '../../src/vscode/loginProfileCommands';

describe('login profiles on disk', () => {
  let scratch: string;
  let profiles: LoginProfiles;
  beforeEach(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-profiles-'));
    profiles = new LoginProfiles(path.join(scratch, 'login-profiles'));
  });
  afterEach(() => fs.rmSync(scratch, { recursive: true, force: true }));

  const state = (marker: string) => JSON.stringify({ cookies: [{ name: 'session', value: marker, domain: '127.0.0.1', path: '/' }], origins: [] });

  it('writes a private file in a private folder, keeps the previous version, and lists both', async () => {
    await profiles.save('site', state('one'));
    assert.strictEqual(fs.statSync(profiles.folder).mode & 0o777, 0o700);
    assert.strictEqual(fs.statSync(profiles.pathOf('site')).mode & 0o777, 0o600);
    await profiles.save('site', state('two'));
    assert.match(profiles.read('site'), /"two"/);
    assert.match(fs.readFileSync(path.join(profiles.folder, 'site.previous.json'), 'utf8'), /"one"/);
    assert.strictEqual(fs.statSync(path.join(profiles.folder, 'site.previous.json')).mode & 0o777, 0o600);
    assert.deepStrictEqual(
      profiles.list().map(p => [p.name, p.hasPrevious]),
      [['site', true]],
    );
  });

  it('two saves at once take turns: the file is whole, one of the two, and the other is its previous version', async () => {
    const big = (marker: string) => JSON.stringify({ cookies: Array.from({ length: 2000 }, (_, i) => ({ name: `c${i}`, value: marker })), origins: [] });
    await Promise.all([profiles.save('race', big('A')), profiles.save('race', big('B'))]);
    const now = JSON.parse(profiles.read('race'));
    const previous = JSON.parse(fs.readFileSync(path.join(profiles.folder, 'race.previous.json'), 'utf8'));
    assert.deepStrictEqual(new Set([now.cookies[0].value, previous.cookies[0].value]), new Set(['A', 'B']));
    assert.ok(
      now.cookies.every((c: { value: string }) => c.value === now.cookies[0].value),
      'not a mix of the two',
    );
    assert.deepStrictEqual(
      fs.readdirSync(profiles.folder).filter(f => f.endsWith('.tmp') || f.endsWith('.lock')),
      [],
      'no temp file or lock left',
    );
  });

  it('refuses a state over the cap, a bad name and broken JSON, and says so', async () => {
    await assert.rejects(profiles.save('huge', JSON.stringify({ cookies: [], pad: 'x'.repeat(MAX_PROFILE_BYTES) })), /over the 5 MB a profile may hold/);
    await assert.rejects(profiles.save('../escape', state('x')), /not a profile name/);
    await assert.rejects(profiles.save('broken', '{"cookies": ['), /JSON/);
    assert.deepStrictEqual(profiles.list(), []);
  });

  it("refuses a name that collides with another profile's backup, so `work.previous` never overwrites or loses `work`'s", async () => {
    await profiles.save('work', state('current'));
    await profiles.save('work', state('backup'));
    for (const name of ['work.previous', 'work.PREVIOUS', 'Work.Previous']) {
      await assert.rejects(profiles.save(name, state('intruder')), /not a profile name.*not ending in "\.previous"/, name);
      assert.throws(() => profiles.read(name), /not a profile name/);
      await assert.rejects(profiles.delete(name), /not a profile name/);
    }
    assert.match(fs.readFileSync(path.join(profiles.folder, 'work.previous.json'), 'utf8'), /"current"/, "work's backup is untouched");
    assert.match(profiles.read('work'), /"backup"/);
    await profiles.save('work.previous-2', state('fine'));
    assert.deepStrictEqual(
      profiles.list().map(p => p.name),
      ['work', 'work.previous-2'],
    );
  });

  it('tells a second writer clearly when the profile stays locked, and takes over a lock whose writer died', async function () {
    this.timeout(15000);
    await profiles.save('held', state('one'));
    const lock = path.join(profiles.folder, '.held.lock');
    fs.writeFileSync(lock, String(process.pid));
    await assert.rejects(profiles.delete('held'), /Login profile "held" is in use/);
    fs.writeFileSync(lock, '999999999');
    await profiles.delete('held');
    assert.deepStrictEqual(profiles.list(), []);
  });

  it("suggests a profile name from the page's host", () => {
    assert.strictEqual(suggestedProfileName('https://accounts.example.com/login?x=1'), 'accounts.example.com');
    assert.strictEqual(suggestedProfileName(undefined), 'my-login');
  });
});
