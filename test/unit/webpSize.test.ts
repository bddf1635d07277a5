import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { fitImage, imageSize } from '../../src/core/results/imageDownscale';

/** Real WebP files Chromium's encoder wrote (canvas.toDataURL('image/webp')), one per header kind, 1280x720 each. */
const FIXTURES = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures');
const webp = (kind: string) => new Uint8Array(fs.readFileSync(path.join(FIXTURES, `screen-1280x720-${kind}.webp`)));

describe('WebP images: size read from the header, no false warning', () => {
  for (const kind of ['vp8', 'vp8l', 'vp8x']) {
    it(`reads a ${kind.toUpperCase()} WebP's size and passes a 1280x720 one through without a note`, () => {
      const data = webp(kind);
      assert.deepStrictEqual(imageSize(data, 'image/webp'), { width: 1280, height: 720 });
      const fitted = fitImage(data, 'image/webp');
      assert.strictEqual(fitted.note, undefined, fitted.note);
      assert.strictEqual(fitted.data, data, 'unchanged');
    });
  }

  it('still warns when a WebP really is too big and cannot be resized here', () => {
    const fitted = fitImage(webp('vp8x'), 'image/webp', { maxSide: 640, maxBytes: 5_000_000 });
    assert.match(fitted.note ?? '', /image\/webp image could not be resized here/);
  });

  it("reads a GIF's size from its header", () => {
    const gif = Buffer.from('R0lGODlhAAUCAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=', 'base64');
    assert.deepStrictEqual(imageSize(gif, 'image/gif'), { width: 1280, height: 2 });
  });
});
