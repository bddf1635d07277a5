/** The address bar reads what the person typed as a browser would, and says in place when it is not an address. */
import * as assert from 'assert';
import { readAddress } from '../../src/webview/addressText';

describe('the address bar reads what the person typed', () => {
  const url = (text: string) => {
    const read = readAddress(text);
    assert.ok(read && 'url' in read, `${text} is an address: ${JSON.stringify(read)}`);
    return read.url;
  };
  const refused = (text: string) => {
    const read = readAddress(text);
    assert.ok(read && 'notAnAddress' in read, `${text} is not an address: ${JSON.stringify(read)}`);
    return read.notAnAddress;
  };

  it('gives a bare host its scheme: http for this machine, https for others', () => {
    assert.strictEqual(url('localhost:3000/app'), 'http://localhost:3000/app');
    assert.strictEqual(url('127.0.0.1:8080'), 'http://127.0.0.1:8080');
    assert.strictEqual(url('[::1]:5173'), 'http://[::1]:5173');
    assert.strictEqual(url('example.com'), 'https://example.com');
    assert.strictEqual(url('docs.example.com/a?b=1#c'), 'https://docs.example.com/a?b=1#c');
    assert.strictEqual(url('devbox:8080'), 'https://devbox:8080');
  });

  it('keeps an address with a scheme as typed', () => {
    assert.strictEqual(url('https://example.com/x'), 'https://example.com/x');
    assert.strictEqual(url('about:blank'), 'about:blank');
    assert.strictEqual(url('file:///tmp/a.html'), 'file:///tmp/a.html');
  });

  it('sends text that is not an address nowhere, and says so with the text', () => {
    // The outside review's case: this navigated to https://https//what%20is%20this%20%5E%5E.
    assert.match(refused('what is this ^^'), /"what is this \^\^" is not an address/);
    refused('hello');
    refused('https//example.com');
    refused('two words.com');
    assert.strictEqual(readAddress('   '), undefined, 'an empty box does nothing');
  });
});
