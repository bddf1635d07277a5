import * as assert from 'assert';
import { presentInvocation } from '../../src/core/results/invocationMessages';

describe('invocation messages', () => {
  it('names the key argument of everyday tools', () => {
    assert.strictEqual(
      presentInvocation('browser_navigate', 'Navigate', { url: 'http://127.0.0.1:3000/login' }).invocationMessage,
      'Opening http://127.0.0.1:3000/login',
    );
    assert.strictEqual(
      presentInvocation('browser_click', 'Click', { element: 'Sign in button', target: 'e12' }).invocationMessage,
      'Clicking “Sign in button” (e12)',
    );
    assert.strictEqual(
      presentInvocation('browser_type', 'Type', { element: 'Email', target: 'e3', text: 'me@x.dev', submit: true }).invocationMessage,
      'Typing "me@x.dev" into “Email” (e3) and submitting',
    );
    assert.strictEqual(presentInvocation('browser_press_key', 'Press a key', { key: 'Enter' }).invocationMessage, 'Pressing Enter');
    assert.strictEqual(presentInvocation('browser_cookie_get', 'Get cookie', { name: 'sid' }).invocationMessage, 'Get cookie: sid');
    assert.strictEqual(presentInvocation('browser_snapshot', 'Snapshot', {}).confirmation, undefined);
  });

  it('survives arguments that are not an object', () => {
    assert.strictEqual(presentInvocation('browser_navigate', 'Navigate', null).invocationMessage, 'Opening ');
    assert.strictEqual(presentInvocation('browser_tabs', 'Tabs', 'garbage').invocationMessage, 'Tabs: ');
  });

  it('asks before running code and shows exactly that code', () => {
    const code = 'async (page) => { await page.goto("x"); /* ``` */ }';
    const unsafe = presentInvocation('browser_run_code_unsafe', 'Run Playwright code (unsafe)', { code });
    assert.ok(unsafe.confirmation);
    assert.match(unsafe.confirmation!.title, /full Playwright access/);
    assert.ok(unsafe.confirmation!.message.includes(`\`\`\`\`js\n${code}\n\`\`\`\``), 'the fence is longer than any backtick run inside');
    const evaluate = presentInvocation('browser_evaluate', 'Evaluate JavaScript', { function: '() => document.title', element: 'Title', target: 'e1' });
    assert.match(evaluate.confirmation!.message, /inside the page on “Title” \(e1\)/);
    assert.match(evaluate.confirmation!.message, /\(\) => document.title/);
    const fromFile = presentInvocation(
      'browser_run_code_unsafe',
      'Run',
      { filename: 'scripts/x.js' },
      { codeFile: { path: '/ws/scripts/x.js', content: 'await page.goto("y")' } },
    );
    assert.match(fromFile.confirmation!.message, /will run the code in the file `\/ws\/scripts\/x.js`/);
    assert.ok(fromFile.confirmation!.message.includes('```js\nawait page.goto("y")\n```'), "the file's content is shown, not only its name");
    const unreadable = presentInvocation(
      'browser_run_code_unsafe',
      'Run',
      { filename: 'x.js' },
      { codeFile: { path: '/ws/x.js', error: '/ws/x.js cannot be read: ENOENT.' } },
    );
    assert.match(unreadable.confirmation!.message, /cannot be shown: \/ws\/x.js cannot be read: ENOENT\. Nothing runs\./);
    const both = presentInvocation('browser_run_code_unsafe', 'Run', { code: 'harmless()', filename: 'evil.js' });
    assert.match(both.confirmation!.message, /both code and the file `evil.js`\. Such a call is refused/);
  });

  it('names the exact file a call writes, relative names in the output folder', () => {
    const context = { outputDir: '/storage/output/playwright-bridge' };
    const snapshot = presentInvocation('browser_snapshot', 'Snapshot', { filename: 'inside.yml' }, context);
    assert.strictEqual(snapshot.confirmation?.title, 'Write a file?');
    assert.match(snapshot.confirmation!.message, /will write `\/storage\/output\/playwright-bridge\/inside.yml`\.$/);
    const absolute = presentInvocation('browser_network_request', 'Network request', { filename: '/ws/.vscode/settings.json' }, context);
    assert.match(absolute.confirmation!.message, /will write `\/ws\/.vscode\/settings.json`/);
    const escaping = presentInvocation('browser_take_screenshot', 'Screenshot', { filename: '../../x.png' }, context);
    assert.match(escaping.confirmation!.message, /refused: it leaves the output folder/);
    const evaluate = presentInvocation('browser_evaluate', 'Evaluate', { function: '() => 1', filename: 'r.json' }, context);
    assert.match(evaluate.confirmation!.message, /and write its result to `\/storage\/output\/playwright-bridge\/r.json`/);
    const reads = presentInvocation('browser_set_storage_state', 'Restore storage', { filename: 'state.json' }, context);
    assert.strictEqual(reads.confirmation?.title, 'Let the browser read local files?', 'a filename a tool reads is not a write');
  });

  it('asks before handing local files to the page or writing files', () => {
    const upload = presentInvocation('browser_file_upload', 'Upload files', { paths: ['/home/me/cv.pdf', '/home/me/photo.png'] });
    assert.match(upload.confirmation!.message, /- `\/home\/me\/cv.pdf`\n- `\/home\/me\/photo.png`/);
    const pdf = presentInvocation('browser_pdf_save', 'Save as PDF', { filename: 'page.pdf' });
    assert.match(pdf.confirmation!.message, /will write `page.pdf \(in the Playwright Bridge output folder\)`/);
  });
});
