import * as assert from 'assert';
import { FixtureServer } from '../fixtures/fixtureServer';
import { makeRealBridge, textOf } from '../support/realBridge';

describe('one rule for relative file names, readers and writers alike, on a real child and Chromium', function () {
  this.timeout(180000);
  const fixture = new FixtureServer();
  before(() => fixture.start());
  after(() => fixture.stop());

  it('browser_set_storage_state reads back the relative name browser_storage_state wrote: the cookie returns', async () => {
    const bridge = makeRealBridge({ capabilities: ['storage'] });
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await bridge.supervisor.callTool(name, args);
        assert.ok(!result.isError, `${name}: ${textOf(result)}`);
        return textOf(result);
      };
      await call('browser_navigate', { url: `${fixture.url}/` });
      await call('browser_evaluate', { function: '() => { document.cookie = "roundtrip=kept; path=/"; }' });
      await call('browser_storage_state', { filename: 'rt.json' });
      await call('browser_cookie_clear', {});
      assert.doesNotMatch(await call('browser_evaluate', { function: '() => document.cookie' }), /roundtrip=kept/, 'cleared');
      await call('browser_set_storage_state', { filename: 'rt.json' });
      assert.match(await call('browser_evaluate', { function: '() => document.cookie' }), /roundtrip=kept/);
    } finally {
      await bridge.dispose();
    }
  });
});
