import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { FixtureServer } from '../fixtures/fixtureServer';
import { makeRealBridge, textOf } from '../support/realBridge';

describe("the output folder's budget on a real child and Chromium", function () {
  this.timeout(180000);
  const fixture = new FixtureServer();
  before(() => fixture.start());
  after(() => fixture.stop());

  it('prunes the files the bridge reported writing, and never a file the person dropped in the folder between calls', async () => {
    // A budget of a few bytes: every file the bridge writes is over it at once.
    const bridge = makeRealBridge({}, { outputBudgetBytes: 10 });
    try {
      const dir = bridge.config.mcp.outputDir;
      const nav = await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
      assert.ok(!nav.isError, textOf(nav));
      const dropped = [path.join(dir, 'my-notes.md'), path.join(dir, 'keep', 'diagram.png')];
      for (const file of dropped) {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, `the person's own file, not the bridge's\n`.repeat(50));
      }
      const shots: string[] = [];
      for (const filename of [undefined, 'named.png']) {
        const shot = await bridge.supervisor.callTool('browser_take_screenshot', { type: 'png', ...(filename ? { filename } : {}) });
        assert.ok(!shot.isError, textOf(shot));
        const written = /\[Screenshot[^\]]*\]\(([^)]+\.png)\)/.exec(textOf(shot))?.[1];
        assert.ok(written && written.startsWith(dir), `the result links the file it wrote: ${textOf(shot)}`);
        shots.push(written);
      }
      for (const file of shots) assert.ok(!fs.existsSync(file), `the bridge's own ${path.basename(file)} was pruned to keep the budget`);
      for (const file of dropped) {
        assert.ok(fs.existsSync(file), `${path.relative(dir, file)} is the person's and survives`);
        assert.match(fs.readFileSync(file, 'utf8'), /the person's own file/);
      }
    } finally {
      await bridge.dispose();
    }
  });
});
