/**
 * Save all as HAR: the requests the Network pane lists (the watched session's, those the person has not
 * cleared), as HAR 1.2 with their bodies, so Playwright's own `routeFromHAR` can replay them. Sanitized as
 * DevTools' default export is (no Cookie, Set-Cookie or Authorization headers). Bodies are read as the panel
 * reads them (their charset, JSON's escapes written plain) so the caller's mask sees a secret however the
 * server spelled it; a binary body that holds a secret is left out. Request and response bodies share one budget.
 * Never waits on a request still running.
 */
import type { Request, Response } from 'playwright';
import type { NetworkEntry } from '../protocol/childMessages';
import { bodyOf, plainAsciiEscapes, requestSpan } from './requestDetail';
import { withDeadline } from '../core/supervision/deadline';

/** Headers that hold a session or a credential: dropped, as DevTools' sanitized export drops them. */
const SANITIZED = new Set(['cookie', 'set-cookie', 'authorization', 'proxy-authorization']);
/**
 * A body kept whole up to this; the whole file's bodies, requests' and responses' alike, up to BODIES_BUDGET,
 * counted as they are written out (a body of control characters grows sevenfold in JSON). Past it, entries say
 * so and keep none.
 */
const BODY_LIMIT = 5 * 1024 * 1024;
const BODIES_BUDGET = 20 * 1024 * 1024;
/** The browser's answer to a finished request comes at once; a wait past this is a request still running. */
const READ_MS = 2000;

/** What a read gives within READ_MS, or nothing (the project's deadline, its refusal taken as "not there"). */
const within = <T>(work: Promise<T>): Promise<T | undefined> => withDeadline(work, READ_MS, 'not answered').catch(() => undefined);

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
    postData?: { mimeType: string; text: string; comment?: string }; headersSize: -1; bodySize: number;
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

/** What an entry says of a body past the limits. */
const notKept = (bytes: number) => `Body not kept (${bytes} bytes; the bridge keeps bodies up to ${BODY_LIMIT} bytes, ${BODIES_BUDGET} in all, requests' and responses' alike).`;

const sanitized = (headers: HarHeader[]) => headers.filter(header => !header.name.startsWith(':') && !SANITIZED.has(header.name.toLowerCase()));
const span = (from: number, to: number) => (from >= 0 && to >= from ? Math.round((to - from) * 1000) / 1000 : -1);

/**
 * `holdsSecret`: whether bytes the HAR would carry as base64 hold a secret's value in any spelling (the mask's own
 * test); such a body is left out, as base64 cannot be masked without breaking it.
 */
export async function buildHar(listed: { request: Request; entry: NetworkEntry }[], version: string, holdsSecret: (bytes: Buffer) => boolean): Promise<HarResult> {
  let budget = BODIES_BUDGET;
  let omittedBodies = 0;
  const entries: HarEntry[] = [];
  for (const { request, entry } of listed) {
    const t = request.timing();
    // Still running (a stream, a long poll, a request the server never answers): listed without an answer.
    const finished = entry.failure !== undefined || (entry.durationMs !== undefined && t.responseEnd >= 0);
    const response: Response | null = finished && !entry.failure ? (await within(request.response())) ?? null : null;
    // Playwright's full headers wait for the answer: a request still running gets those it was sent with.
    const [requestHeaders, responseHeaders, remote] = await Promise.all([
      finished ? within(request.headersArray()).then(headers => headers ?? []) : Promise.resolve(Object.entries(request.headers()).map(([name, value]) => ({ name, value }))),
      response ? within(response.headersArray()).then(headers => headers ?? []) : Promise.resolve([] as HarHeader[]),
      response ? within(response.serverAddr()).then(addr => addr ?? null) : Promise.resolve(null),
    ]);
    const mimeType = responseHeaders.find(header => header.name.toLowerCase() === 'content-type')?.value ?? 'x-unknown';
    const content: HarEntry['response']['content'] = { size: 0, mimeType };
    const redirect = response && response.status() >= 300 && response.status() < 400;
    if (!finished) content.comment = 'Still loading when the HAR was saved.';
    if (response && !redirect) {
      const body = await within(response.body());
      if (!body) {
        content.comment = 'The browser no longer had this body.';
      } else {
        content.size = body.length;
        // As the panel reads it: its charset, JSON's \u00XX escapes written plain, so the mask sees every spelling.
        const read = body.length <= BODY_LIMIT ? bodyOf(body, mimeType, 'utf-8') : undefined;
        const text = read?.text !== undefined && !read.truncated ? (read.kind === 'json' ? plainAsciiEscapes(read.text) : read.text) : undefined;
        const written = text !== undefined ? JSON.stringify(text).length : body.length <= BODY_LIMIT ? Math.ceil(body.length / 3) * 4 : Infinity;
        if (written > budget) {
          content.comment = notKept(body.length);
          omittedBodies++;
        } else if (text !== undefined) {
          budget -= written;
          content.text = text;
        } else if (holdsSecret(body)) {
          content.comment = 'Body left out: it holds a secret of the bridge, which base64 cannot mask.';
          omittedBodies++;
        } else {
          budget -= written;
          content.text = body.toString('base64');
          content.encoding = 'base64';
        }
      }
    }
    const postData = request.postData();
    let requestBody: HarEntry['request']['postData'];
    if (postData !== null) {
      const mimeType = requestHeaders.find(h => h.name.toLowerCase() === 'content-type')?.value ?? '';
      const bytes = Buffer.byteLength(postData);
      const written = bytes <= BODY_LIMIT ? JSON.stringify(postData).length : Infinity;
      if (written > budget) {
        requestBody = { mimeType, text: '', comment: notKept(bytes) };
        omittedBodies++;
      } else {
        budget -= written;
        requestBody = { mimeType, text: postData };
      }
    }
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
        ...(requestBody ? { postData: requestBody } : {}),
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
