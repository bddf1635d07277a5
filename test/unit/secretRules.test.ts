import * as assert from 'assert';
import * as path from 'path';
import { presentInvocation } from '../../src/core/results/invocationMessages';
import { parseSecretSites } from '../../src/core/settings/secretSites';
import { SecretMask } from '../../src/core/egress/secretMask';
import { originOf, secretUses } from '../../src/child/secretSites';
import { filesNamedIn } from '../../src/child/secretFiles';
import { TRICKY_SECRET } from '../harden/secretLeaks';
import { encodingsOf, reveals } from '../support/secretSpellings';

describe('secret rules (plain Node)', () => {
  it('masks the tricky value in each encoding whole, longest secret first', () => {
    const mask = new SecretMask({ SITE_PASSWORD: TRICKY_SECRET, SHORT: 'hun' });
    for (const [form, spelling] of Object.entries(encodingsOf(TRICKY_SECRET))) {
      const masked = mask.text(`before ${spelling} after`);
      // A base64 run goes whole (what else it encodes with the value goes with it); so does a URL's or JSON's text around it.
      assert.match(masked, /^before .*<secret>SITE_PASSWORD<\/secret>.* after$/, `${form}: ${spelling} -> ${masked}`);
      assert.ok(!reveals(masked, TRICKY_SECRET), `${form}: ${masked}`);
    }
    // As Chromium serializes an attribute: & < > " escaped, the apostrophe left as it is.
    const attribute = TRICKY_SECRET.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
    assert.strictEqual(mask.text(`<input value="${attribute}">`), '<input value="<secret>SITE_PASSWORD</secret>">');
    assert.strictEqual(mask.text('a hunter'), 'a <secret>SHORT</secret>ter', 'a shorter secret is still masked alone');
  });

  it('masks every string of a picked element and leaves non-strings alone', () => {
    const mask = new SecretMask({ PW: 's3cr3t"x' });
    const element = { role: 'textbox', name: 'Password', html: '<input value="s3cr3t&quot;x">', url: 'http://a/?pw=s3cr3t%22x', width: 3 };
    assert.deepStrictEqual(mask.deep(element), {
      role: 'textbox',
      name: 'Password',
      html: '<input value="<secret>PW</secret>">',
      url: 'http://a/?pw=<secret>PW</secret>',
      width: 3,
    });
  });

  it("reads a secret's sites into exact origins and refuses wildcards and non-web addresses", () => {
    assert.deepStrictEqual(parseSecretSites('https://bank.example/login?x=1, bank.example:8443 http://127.0.0.1:3000').origins, [
      'https://bank.example',
      'https://bank.example:8443',
      'http://127.0.0.1:3000',
    ]);
    assert.deepStrictEqual(parseSecretSites('').origins, []);
    assert.match(parseSecretSites('https://*.bank.example').problem!, /wildcards/);
    assert.match(parseSecretSites('file:///etc/passwd').problem!, /http\(s\) site/);
    assert.match(parseSecretSites('data:text/html,x').problem!, /not/);
    assert.strictEqual(originOf('about:blank'), undefined);
    assert.strictEqual(originOf('http://127.0.0.1:80/x'), 'http://127.0.0.1');
  });

  it('finds the secrets a call would type, where upstream types them', () => {
    const names = new Set(['SITE_PASSWORD']);
    assert.deepStrictEqual(secretUses('browser_type', { text: 'SITE_PASSWORD', target: 'e3' }, names), [{ name: 'SITE_PASSWORD', target: 'e3' }]);
    assert.deepStrictEqual(secretUses('browser_type', { text: 'site_password', target: 'e3' }, names), [], 'exact names only, as upstream');
    assert.deepStrictEqual(
      secretUses(
        'browser_fill_form',
        {
          fields: [
            { target: 'f1e2', value: 'SITE_PASSWORD' },
            { target: 'e1', value: 'ada' },
          ],
        },
        names,
      ),
      [{ name: 'SITE_PASSWORD', target: 'f1e2' }],
    );
    assert.deepStrictEqual(secretUses('browser_fill_form', { fields: 'junk' }, names), []);
    assert.deepStrictEqual(secretUses('browser_click', { text: 'SITE_PASSWORD' }, names), []);
  });

  it('masks only files the result names inside the output folder', () => {
    const dir = path.resolve('/out/playwright-bridge');
    const text = `- [Snapshot](${dir}/page-1.yml)\n- New console entries: ${dir}/console-2.log#L3-L5\nSee /etc/passwd and ${dir}/../escape.log and ${dir}/shot.png`;
    assert.deepStrictEqual(filesNamedIn(text, dir), [path.join(dir, 'page-1.yml'), path.join(dir, 'console-2.log')]);
  });

  it('the confirmation of browser_run_code_unsafe says secrets are set and that the code could read them', () => {
    const shown = presentInvocation('browser_run_code_unsafe', 'Run Playwright code', { code: 'async page => 1' }, { secretNames: ['SITE_PASSWORD'] });
    assert.match(shown.confirmation!.message, /\*\*Secrets are set\*\* \(`SITE_PASSWORD`\).*could read them/s);
    const none = presentInvocation('browser_run_code_unsafe', 'Run Playwright code', { code: 'async page => 1' }, { secretNames: [] });
    assert.doesNotMatch(none.confirmation!.message, /Secrets are set/);
  });
});
