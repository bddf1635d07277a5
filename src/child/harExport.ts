/**
 * Save all as HAR: the requests the Network pane lists (the watched session's), as HAR 1.2 with their
 * bodies, so Playwright's own `routeFromHAR` can replay them. Sanitized as DevTools' default export is
 * (no Cookie, Set-Cookie or Authorization headers), and masked by the caller like every other output.
 */
import type { Request } from 'playwright';
import type { NetworkEntry } from '../protocol/childMessages';
import { requestSpan } from './requestDetail';

/** Headers that hold a session or a credential: dropped, as DevTools' sanitized export drops them. */
const SANITIZED = new Set(['cookie', 'set-cookie', 'authorization', 'proxy-authorization']);
/** A body kept whole up to this; the whole file's bodies up to BODIES_BUDGET (past it, entries say so and keep none). */
const BODY_LIMIT = 5 * 1024 * 1024;
const BODIES_BUDGET = 50 * 1024 * 1024;

type HarHeader = { name: string; value: string };

export interface HarResult {
  har: HarLog;
  entries: number;
  omittedBodies: number;
}

export interface HarLog {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    entries: HarEntry[];
  };
}

interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string; url: string; httpVersion: string; cookies: []; headers: HarHeader[]; queryString: HarHeader[];
    postData?: { mimeType: string; text: string }; headersSize: -1; bodySize: number;
  };
  response: {
    status: number; statusText: string; httpVersion: string; cookies: []; headers: HarHeader[];
    content: { size: number; mimeType: string; text?: string; encoding?: 'base64'; comment?: string };
    redirectURL: string; headersSize: -1; bodySize: number;
  };
  cache: Record<string, never>;
  timings: { blocked: number; dns: number; connect: number; ssl: number; send: number; wait: number; receive: number };
  serverIPAddress?: string;
  _resourceType: string;
  _initiator?: string;
  _failureText?: string;
}

const sanitized = (headers: HarHeader[]) => headers.filter(header => !header.name.startsWith(':') && !SANITIZED.has(header.name.toLowerCase()));
const span = (from: number, to: number) => (from >= 0 && to >= from ? Math.round((to - from) * 1000) / 1000 : -1);

export async function buildHar(listed: { request: Request; entry: NetworkEntry }[], version: string): Promise<HarResult> {
  let budget = BODIES_BUDGET;
  let omittedBodies = 0;
  const entries: HarEntry[] = [];
  for (const { request, entry } of listed) {
    const response = await request.response().catch(() => null);
    const t = request.timing();
    const [requestHeaders, responseHeaders, remote] = await Promise.all([
      request.headersArray().catch(() => [] as HarHeader[]),
      response ? response.headersArray().catch(() => [] as HarHeader[]) : Promise.resolve([] as HarHeader[]),
      response ? response.serverAddr().catch(() => null) : Promise.resolve(null),
    ]);
    const mimeType = responseHeaders.find(header => header.name.toLowerCase() === 'content-type')?.value ?? 'x-unknown';
    const content: HarEntry['response']['content'] = { size: 0, mimeType };
    const redirect = response && response.status() >= 300 && response.status() < 400;
    if (response && !redirect && !entry.failure) {
      const body = await response.body().catch(() => undefined);
      if (!body) {
        content.comment = 'The browser no longer had this body.';
      } else if (body.length > BODY_LIMIT || body.length > budget) {
        content.size = body.length;
        content.comment = `Body not kept (${body.length} bytes; the bridge keeps bodies up to ${BODY_LIMIT} bytes, ${BODIES_BUDGET} in all).`;
        omittedBodies++;
      } else {
        budget -= body.length;
        content.size = body.length;
        const text = /^(text\/|application\/(json|[\w.+-]*\+json|javascript|xml|[\w.+-]*\+xml|x-www-form-urlencoded))|^image\/svg\+xml/i.test(mimeType);
        if (text) content.text = body.toString('utf8');
        else {
          content.text = body.toString('base64');
          content.encoding = 'base64';
        }
      }
    }
    const postData = request.postData();
    const measured = requestSpan(request);
    const query = (() => {
      try {
        return [...new URL(request.url()).searchParams].map(([name, value]) => ({ name, value }));
      } catch {
        return [];
      }
    })();
    const wait = span(t.requestStart, t.responseStart);
    const receive = span(t.responseStart, t.responseEnd);
    entries.push({
      startedDateTime: new Date(measured?.startedAt ?? entry.time).toISOString(),
      time: measured?.totalMs ?? entry.durationMs ?? 0,
      request: {
        method: request.method(), url: request.url(), httpVersion: 'HTTP/1.1', cookies: [], headers: sanitized(requestHeaders), queryString: query,
        ...(postData !== null ? { postData: { mimeType: requestHeaders.find(h => h.name.toLowerCase() === 'content-type')?.value ?? '', text: postData } } : {}),
        headersSize: -1, bodySize: postData !== null ? Buffer.byteLength(postData) : 0,
      },
      response: {
        // As Playwright's own recorder writes a request that never got an answer.
        status: response?.status() ?? -1, statusText: response?.statusText() ?? '', httpVersion: 'HTTP/1.1', cookies: [], headers: sanitized(responseHeaders),
        content, redirectURL: response?.headers().location ?? '', headersSize: -1, bodySize: content.text !== undefined ? content.size : -1,
      },
      cache: {},
      timings: {
        blocked: -1, dns: span(t.domainLookupStart, t.domainLookupEnd), connect: span(t.connectStart, t.connectEnd),
        ssl: span(t.secureConnectionStart, t.connectEnd), send: 0, wait: Math.max(0, wait), receive: Math.max(0, receive),
      },
      ...(remote ? { serverIPAddress: remote.ipAddress } : {}),
      _resourceType: request.resourceType(),
      ...(entry.initiator ? { _initiator: entry.initiator } : {}),
      ...(entry.failure ? { _failureText: entry.failure } : {}),
    });
  }
  return { har: { log: { version: '1.2', creator: { name: 'Playwright Bridge', version }, entries } }, entries: entries.length, omittedBodies };
}
