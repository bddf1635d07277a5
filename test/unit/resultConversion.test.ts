import * as assert from 'assert';
import * as jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { imageSize } from '../../src/core/results/imageDownscale';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BridgePart, CallResult, convertToolResult as convertFinished } from '../../src/core/pipeline/callResult';

/** What the language-model door hands the model for an answer: the result finished once, then converted. */
function convertToolResult(toolName: string, answer: CallToolResult): BridgePart[] {
  const result = new CallResult();
  result.received(answer);
  return convertFinished(toolName, result.finish().result);
}

function png(width: number, height: number, paint: (x: number, y: number) => [number, number, number]): string {
  const image = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = paint(x, y);
      const i = (y * width + x) * 4;
      image.data[i] = r;
      image.data[i + 1] = g;
      image.data[i + 2] = b;
      image.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(image).toString('base64');
}

function images(parts: BridgePart[]) {
  return parts.filter((p): p is Extract<BridgePart, { kind: 'image' }> => p.kind === 'image');
}

function texts(parts: BridgePart[]): string {
  return parts
    .filter(p => p.kind === 'text')
    .map(p => (p as { text: string }).text)
    .join('\n');
}

describe('result conversion', () => {
  it('passes text through without terminal colour codes', () => {
    const parts = convertToolResult('browser_snapshot', { content: [{ type: 'text', text: '\u001b[32m- button "OK"\u001b[39m [ref=e2]' }] });
    assert.deepStrictEqual(parts, [{ kind: 'text', text: '- button "OK" [ref=e2]' }]);
  });

  it('says plainly that a call failed, and why', () => {
    const parts = convertToolResult('browser_navigate', {
      isError: true,
      content: [{ type: 'text', text: '### Error\n\u001b[31mnet::ERR_CONNECTION_REFUSED\u001b[39m at http://127.0.0.1:9/' }],
    });
    assert.strictEqual(texts(parts), 'The tool browser_navigate failed: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/');
    const bare = convertToolResult('browser_click', { isError: true, content: [] });
    assert.strictEqual(texts(bare), 'The tool browser_click failed: no reason was given');
  });

  it('keeps a small screenshot as it is', () => {
    const data = png(64, 32, (x, y) => [x * 4, y * 8, 0]);
    const parts = convertToolResult('browser_take_screenshot', { content: [{ type: 'image', data, mimeType: 'image/png' }] });
    assert.strictEqual(images(parts).length, 1);
    assert.strictEqual(Buffer.from(images(parts)[0].data).toString('base64'), data);
    assert.strictEqual(parts.length, 1, 'no note for an image that was not changed');
  });

  it('scales a tall page screenshot so no side exceeds 2000 px, and says so', () => {
    const data = png(1280, 5000, (_x, y) => [y % 256, 0, 255 - (y % 256)]);
    const parts = convertToolResult('browser_take_screenshot', { content: [{ type: 'image', data, mimeType: 'image/png' }] });
    const [image] = images(parts);
    const size = imageSize(image.data, image.mimeType)!;
    assert.strictEqual(size.height, 2000);
    assert.strictEqual(size.width, 512);
    assert.ok(image.data.length <= 1_000_000);
    assert.match(texts(parts), /scaled from 1280x5000 to 512x2000/);
  });

  it('re-encodes a noisy screenshot over 1 MB as a JPEG under 1 MB', () => {
    let seed = 7;
    const noise = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 256;
    const data = png(1200, 900, () => [noise(), noise(), noise()]);
    assert.ok(Buffer.from(data, 'base64').length > 1_000_000, 'the fixture image must start over the limit');
    const parts = convertToolResult('browser_take_screenshot', { content: [{ type: 'image', data, mimeType: 'image/png' }] });
    const [image] = images(parts);
    assert.strictEqual(image.mimeType, 'image/jpeg');
    assert.ok(image.data.length <= 1_000_000, `got ${image.data.length} bytes`);
    const decoded = jpeg.decode(image.data);
    assert.ok(decoded.width <= 1200 && decoded.width >= 100);
    assert.match(texts(parts), /re-encoded as JPEG/);
  });

  it('keeps the picture: a scaled image still shows what the page showed', () => {
    // Left half red, right half blue: after scaling, the same halves must hold.
    const data = png(4000, 1000, x => (x < 2000 ? [255, 0, 0] : [0, 0, 255]));
    const [image] = images(convertToolResult('browser_take_screenshot', { content: [{ type: 'image', data, mimeType: 'image/png' }] }));
    const decoded = PNG.sync.read(Buffer.from(image.data));
    const at = (x: number, y: number) => Array.from(decoded.data.subarray((y * decoded.width + x) * 4, (y * decoded.width + x) * 4 + 3));
    assert.deepStrictEqual(at(10, 10), [255, 0, 0]);
    assert.deepStrictEqual(at(decoded.width - 10, decoded.height - 10), [0, 0, 255]);
  });

  it('describes other content in words and never returns nothing', () => {
    const parts = convertToolResult('x', {
      content: [
        { type: 'resource', resource: { uri: 'file:///a.txt', text: 'hello' } },
        { type: 'resource_link', uri: 'file:///b.pdf', name: 'b.pdf' },
      ],
    });
    assert.strictEqual(texts(parts), 'hello\nLink: file:///b.pdf');
    assert.strictEqual(texts(convertToolResult('browser_wait_for', { content: [] })), 'browser_wait_for finished with no output.');
  });
});
