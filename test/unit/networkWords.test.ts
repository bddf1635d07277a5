/**
 * The Network pane's words as Chrome DevTools writes them (src/webview/networkWords.ts), and the child's sizes
 * that feed them (sizeFacts in src/child/observer/networkLog.ts): what a person reads in the list and its footer.
 */
import * as assert from 'assert';
import type { NetworkRow } from '../../src/protocol/panelMessages';
import { footerText, nameAndPath, shortInitiator, sizeWords, sortedHeaders, summarize } from '../../src/webview/networkWords';
import { sizeFacts } from '../../src/child/observer/networkLog';

const row = (over: Partial<NetworkRow>): NetworkRow => ({
  seq: 1,
  id: 'r1',
  method: 'GET',
  url: 'http://127.0.0.1:8080/a.png',
  resourceType: 'image',
  status: 200,
  time: 0,
  ...over,
});

describe('Network words, as DevTools writes them', () => {
  it('never writes a negative size: a cached response (Playwright says -182 bytes) reads "(memory cache)" or "(disk cache)"', () => {
    // What Playwright's sizes() gives for a response from the memory cache: no bytes moved, less its headers.
    const cached = sizeFacts({ responseBodySize: -182, responseHeadersSize: 182 }, { cache: 'memory', resourceBytes: 900 });
    assert.deepStrictEqual(cached, { sizeBytes: 0, transferBytes: 0, resourceBytes: 900, cache: 'memory' });
    assert.strictEqual(sizeWords(row(cached)).transferred, '(memory cache)');
    assert.strictEqual(sizeWords(row(cached)).resource, '900 B');
    assert.strictEqual(sizeWords(row({ ...cached, cache: 'disk' })).transferred, '(disk cache)');
    // A 404 image with no CDP facts, as measured (-168 B): never below 0.
    const notFound = sizeFacts({ responseBodySize: -168, responseHeadersSize: 100 }, undefined);
    assert.deepStrictEqual(notFound, { sizeBytes: 0, transferBytes: 0 });
    assert.doesNotMatch(sizeWords(row({ status: 404, sizeBytes: -168 })).transferred, /-/, 'an old negative size is no size');
    assert.strictEqual(sizeWords(row({ status: 404, sizeBytes: -168 })).transferred, 'unknown');
    assert.deepStrictEqual(sizeWords(row({ transferBytes: 2048, resourceBytes: 5000 })), {
      transferred: '2.0 KB',
      resource: '4.9 KB',
      title: '2.0 KB transferred over network, resource size: 4.9 KB',
    });
  });

  it('names a request by its file, with the host and path beneath; the host for "/"', () => {
    assert.deepStrictEqual(nameAndPath('http://localhost:8080/static/js/app.js?v=2'), { name: 'app.js?v=2', path: 'localhost:8080/static/js' });
    assert.deepStrictEqual(nameAndPath('http://localhost:8080/'), { name: 'localhost:8080', path: 'localhost:8080/' });
    assert.deepStrictEqual(nameAndPath('http://localhost/api/'), { name: 'localhost', path: 'localhost/api/' });
    assert.deepStrictEqual(nameAndPath('not a url'), { name: 'not a url', path: '' });
  });

  it('shortens an initiator to the script file, line and column', () => {
    assert.strictEqual(shortInitiator('http://127.0.0.1:8080/js/loader.js:12:5'), 'loader.js:12:5');
    assert.strictEqual(shortInitiator('http://127.0.0.1/page:4'), 'page:4');
    assert.strictEqual(shortInitiator('http://127.0.0.1:8080/'), '127.0.0.1:8080');
    assert.strictEqual(shortInitiator('Other'), 'Other');
  });

  it('sums the footer as DevTools does: cached responses transfer nothing, the page gives DOMContentLoaded and Load', () => {
    const rows: NetworkRow[] = [
      row({
        seq: 1,
        url: 'http://h/',
        resourceType: 'document',
        navigation: true,
        transferBytes: 1000,
        resourceBytes: 3000,
        domContentLoadedMs: 120.4,
        loadMs: 200,
      }),
      row({ seq: 2, transferBytes: 0, resourceBytes: 500, cache: 'memory' }),
      row({ seq: 3, sizeBytes: 24 }),
    ];
    const summary = summarize(rows);
    assert.deepStrictEqual(summary, { requests: 3, transferredBytes: 1024, resourceBytes: 3524, domContentLoadedMs: 120.4, loadMs: 200 });
    assert.strictEqual(footerText(summary), '3 requests | 1.0 KB transferred | 3.4 KB resources | DOMContentLoaded: 120 ms | Load: 200 ms');
    assert.strictEqual(footerText(summarize([row({ sizeBytes: 5 })])), '1 request | 5 B transferred | 5 B resources');
  });

  it('sorts header names case-insensitively', () => {
    const names = sortedHeaders([{ name: 'x-b' }, { name: 'Content-Type' }, { name: 'accept' }, { name: 'X-A' }]).map(h => h.name);
    assert.deepStrictEqual(names, ['accept', 'Content-Type', 'X-A', 'x-b']);
  });
});
