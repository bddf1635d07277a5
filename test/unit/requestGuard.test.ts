import * as assert from 'assert';
import { checkRequest, newBearerToken } from '../../src/core/mcpDoor/requestGuard';

describe('endpoint request guard', () => {
  const token = newBearerToken();
  const ok = (headers: Record<string, string>) => checkRequest({ headers }, 4000, token);

  it('makes 256-bit tokens that differ every time', () => {
    assert.strictEqual(Buffer.from(token, 'base64url').length, 32);
    assert.notStrictEqual(newBearerToken(), token);
  });

  it('accepts the loopback names with our port and the right token', () => {
    for (const host of ['127.0.0.1:4000', 'localhost:4000', '[::1]:4000', 'LOCALHOST:4000']) {
      assert.deepStrictEqual(ok({ host, authorization: `Bearer ${token}` }), { ok: true }, host);
    }
  });

  it('refuses other hosts and ports (DNS rebinding) with 403', () => {
    for (const host of ['evil.example:4000', '127.0.0.1:4001', '127.0.0.1', '10.0.0.1:4000', '']) {
      const verdict = ok({ host, authorization: `Bearer ${token}` });
      assert.strictEqual(verdict.ok, false, host);
      assert.strictEqual(!verdict.ok && verdict.status, 403);
    }
  });

  it('refuses any request from a web page with 403', () => {
    const verdict = ok({ host: '127.0.0.1:4000', origin: 'null', authorization: `Bearer ${token}` });
    assert.deepStrictEqual(verdict, { ok: false, status: 403, reason: 'requests from web pages (with an Origin header) are refused' });
  });

  it('refuses a missing, malformed, shorter, longer or wrong token with 401 and never echoes it', () => {
    for (const authorization of [undefined, 'Basic x', 'Bearer ', `Bearer ${token.slice(1)}`, `Bearer ${token}x`, `Bearer ${newBearerToken()}`]) {
      const verdict = ok({ host: '127.0.0.1:4000', ...(authorization ? { authorization } : {}) });
      assert.strictEqual(!verdict.ok && verdict.status, 401, String(authorization));
      assert.ok(!verdict.ok && !verdict.reason.includes(token));
    }
  });
});
