/** The CDP share's refusals before anything runs: another engine, and no browser. */
import * as assert from 'assert';
import { CdpShare } from '../../src/child/cdp/cdpShare';

describe('Open DevTools and Share over CDP refuse in words', () => {
  const challenge = 'c'.repeat(43);

  it('on another engine: Chromium only, naming the setting', async () => {
    await assert.rejects(
      new CdpShare('firefox').prepare(undefined, challenge),
      /need a Chromium-family browser; this one is firefox \(setting playwrightBridge\.browser\)/,
    );
  });

  it('with no browser running: says how to start one', async () => {
    await assert.rejects(new CdpShare('chromium').prepare(undefined, challenge), /No browser runs: start one/);
  });
});
