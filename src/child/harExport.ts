/**
 * Save all as HAR: the requests the Network pane lists (the watched session's, those the person has not
 * cleared), as HAR 1.2 with their bodies, so Playwright's own `routeFromHAR` can replay them. Sanitized as
 * DevTools' default export is (no Cookie, Set-Cookie or Authorization headers). Bodies are read as the panel
 * reads them (their charset, JSON's escapes written plain) so the mask sees a secret however the server
 * spelled it; a binary body that holds a secret is left out. The whole file keeps within one budget
 * (harBudget.ts), measured masked as written: a body that does not fit is left out, a request whose address
 * and headers do not fit is written as its stub, each saying so in its comment, and the log's comment counts
 * them. Never waits on a request still running. With Preserve log on, a body kept as its request ended
 * (observer/keptBodies.ts) is written in place of the browser's, which dropped an earlier page's.
 */
import type { Response } from 'playwright';
import type { ListedRequest } from './observer/networkLog';
import { decodedBound } from './observer/keptBodies';
import { bodyOf, plainAsciiEscapes, requestSpan } from './requestDetail';
import { withDeadline } from '../core/supervision/deadline';
import { fitted, HAR_BUDGET, HarBudget, jsonBytes, STUB_STRING_BYTES } from './harBudget';

/** Headers that hold a session or a credential: dropped, as DevTools' sanitized export drops them. */
const SANITIZED = new Set(['cookie', 'set-cookie', 'authorization', 'proxy-authorization']);
/**
 * A body kept whole up to this, and while the file's budget has room for it, counted as it is written out
 * (a body of control characters grows sevenfold in JSON). Past either, its entry says so and keeps none.
 */
const BODY_LIMIT = 5 * 1024 * 1024;
/** The browser's answer to a finished request comes at once; a wait past this is a request still running. */
const READ_MS = 2000;

/** What a read gives within READ_MS, or nothing (the project's deadline, its refusal taken as "not there"). */
const within = <T>(work: Promise<T>): Promise<T | undefined> => withDeadline(work, READ_MS, 'not answered').catch(() => undefined);

type HarHeader = { name: string; value: string };

export interface HarResult {
  har: HarLog;
  entries: number;
  /** Bodies left out of entries written whole (too large for the budget, or a secret in binary). */
  omittedBodies: number;
  /** Requests written as their stub: their address and headers did not fit. */
  cutEntries: number;
}

export interface HarLog {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    entries: HarEntry[];
    comment?: string;
  };
}

interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: [];
    headers: HarHeader[];
    queryString: HarHeader[];
    postData?: { mimeType: string; text: string; comment?: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: [];
    headers: HarHeader[];
    content: { size: number; mimeType: string; text?: string; encoding?: 'base64'; comment?: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { blocked: number; dns: number; connect: number; ssl: number; send: number; wait: number; receive: number };
  serverIPAddress?: string;
  _resourceType: string;
  _initiator?: string;
  _failureText?: string;
  comment?: string;
}

/** What an entry says of a body past the limits. */
const notKept = (bytes: number | undefined) =>
  bytes === undefined
    ? `Body not kept: compressed, and nothing bounds what it decodes to before it is read (the bridge keeps bodies up to ${BODY_LIMIT} bytes each).`
    : `Body not kept (${bytes} bytes; the bridge keeps bodies up to ${BODY_LIMIT} bytes each, within the file's ${HAR_BUDGET} bytes in all).`;

const sanitized = (headers: HarHeader[]) => headers.filter(header => !header.name.startsWith(':') && !SANITIZED.has(header.name.toLowerCase()));
const span = (from: number, to: number) => (from >= 0 && to >= from ? Math.round((to - from) * 1000) / 1000 : -1);

/** What a request's entry is made of before its bodies are chosen: read once, masked once. */
interface ReadRequest {
  /** The entry without bodies, masked. */
  frame: HarEntry;
  /** The response body as the browser gave it, when there is one to keep. */
  body?: Buffer;
  postData: string | null;
}

/**
 * `masked`: the secret mask, applied here once to every string before it is measured and written (a
 * placeholder is longer than a short secret). `holdsSecret`: whether bytes the HAR would carry as base64 hold a
 * secret's value in any spelling (the mask's own test); such a body is left out, as base64 cannot be masked
 * without breaking it.
 */
export async function buildHar(
  listed: ListedRequest[],
  version: string,
  masked: <T>(value: T) => T,
  holdsSecret: (bytes: Buffer) => boolean,
): Promise<HarResult> {
  const budget = new HarBudget(listed.length);
  let omittedBodies = 0;
  let cutEntries = 0;
  const entries: HarEntry[] = [];
  for (const [index, listedRequest] of listed.entries()) {
    const room = budget.roomFor(index);
    const read = await readRequest(listedRequest, room, masked);
    // Measured as written, our comments included: whole, else without its bodies, else its stub.
    const candidates = 'stub' in read ? [] : wholeThenWithoutBodies(read, room, masked, holdsSecret);
    let fits: { entry: HarEntry; omitted: number; bytes: number } | undefined;
    for (const candidate of candidates) {
      const bytes = jsonBytes(candidate.entry);
      if (bytes <= room) {
        fits = { ...candidate, bytes };
        break;
      }
    }
    if (fits) {
      omittedBodies += fits.omitted;
      budget.take(fits.bytes);
      entries.push(fits.entry);
    } else {
      const stub = 'stub' in read ? read.stub : stubOf(read.frame, undefined);
      cutEntries++;
      budget.take(jsonBytes(stub));
      entries.push(stub);
    }
  }
  const stubs = cutEntries
    ? `${cutEntries} of the ${entries.length} requests are written as stubs (address cut, headers and bodies left out) to keep this file within ${HAR_BUDGET} bytes`
    : '';
  const bodies = omittedBodies ? `${omittedBodies} bodies are left out (past the file's budget, or holding a secret in binary)` : '';
  const comment = stubs || bodies ? `${[stubs, bodies].filter(Boolean).join('; ')}: each entry's comment says what it lost.` : undefined;
  return {
    har: { log: { version: '1.2', creator: { name: 'Playwright Bridge', version }, entries, ...(comment ? { comment } : {}) } },
    entries: entries.length,
    omittedBodies,
    cutEntries,
  };
}

/**
 * A request read from the browser, its entry without bodies masked; or its stub at once when its address and
 * headers alone, as the page wrote them, are already larger than its room (they are then never masked whole).
 */
async function readRequest({ request, entry, keptBody }: ListedRequest, room: number, masked: <T>(value: T) => T): Promise<ReadRequest | { stub: HarEntry }> {
  const t = request.timing();
  // Still running (a stream, a long poll, a request the server never answers): listed without an answer.
  const finished = entry.failure !== undefined || (entry.durationMs !== undefined && t.responseEnd >= 0);
  const response: Response | null = finished && !entry.failure ? ((await within(request.response())) ?? null) : null;
  // Playwright's full headers wait for the answer: a request still running gets those it was sent with.
  const [requestHeaders, responseHeaders, remote] = await Promise.all([
    finished
      ? within(request.headersArray()).then(headers => headers ?? [])
      : Promise.resolve(Object.entries(request.headers()).map(([name, value]) => ({ name, value }))),
    response ? within(response.headersArray()).then(headers => headers ?? []) : Promise.resolve([] as HarHeader[]),
    response ? within(response.serverAddr()).then(addr => addr ?? null) : Promise.resolve(null),
  ]);
  const mimeType = responseHeaders.find(header => header.name.toLowerCase() === 'content-type')?.value ?? 'x-unknown';
  const redirect = response && response.status() >= 300 && response.status() < 400;
  // Kept as it ended (Preserve log), else read now: an earlier page's is gone from the browser by then. Never
  // read past the limit the browser already counted (a small compressed image can decode to hundreds of MB).
  const bound = response ? decodedBound(response, request.resourceType(), entry) : undefined;
  const tooLarge = !keptBody && (bound === undefined || bound > BODY_LIMIT);
  const body = response && !redirect && !tooLarge ? (keptBody ?? (await within(response.body()))) : undefined;
  const content: HarEntry['response']['content'] = { size: body?.length ?? 0, mimeType };
  if (!finished) content.comment = 'Still loading when the HAR was saved.';
  else if (tooLarge && !redirect && response) content.comment = notKept(bound);
  else if (response && !redirect && !body)
    content.comment = 'The browser no longer had this body (with Preserve log on, bodies are kept as each request ends).';
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
  const frame: HarEntry = {
    startedDateTime: new Date(measured?.startedAt ?? entry.time).toISOString(),
    time: measured?.totalMs ?? entry.durationMs ?? 0,
    request: {
      method: request.method(),
      url: request.url(),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: sanitized(requestHeaders),
      queryString: query,
      headersSize: -1,
      bodySize: postData !== null ? Buffer.byteLength(postData) : 0,
    },
    response: {
      // As Playwright's own recorder writes a request that never got an answer.
      status: response?.status() ?? -1,
      statusText: response?.statusText() ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: sanitized(responseHeaders),
      content,
      redirectURL: response?.headers().location ?? '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: {
      blocked: -1,
      dns: span(t.domainLookupStart, t.domainLookupEnd),
      connect: span(t.connectStart, t.connectEnd),
      ssl: span(t.secureConnectionStart, t.connectEnd),
      send: 0,
      wait: Math.max(0, wait),
      receive: Math.max(0, receive),
    },
    ...(remote ? { serverIPAddress: remote.ipAddress } : {}),
    _resourceType: request.resourceType(),
    ...(entry.initiator ? { _initiator: entry.initiator } : {}),
    ...(entry.failure ? { _failureText: entry.failure } : {}),
  };
  // Every string counts at least a byte a character once written: past the room, only the stub's few strings are masked.
  const pageChars =
    frame.request.url.length * 2 + [...frame.request.headers, ...frame.response.headers].reduce((sum, h) => sum + h.name.length + h.value.length, 0);
  if (pageChars > room) return { stub: stubOf(frame, masked) };
  return { frame: masked(frame), ...(body ? { body } : {}), postData };
}

/** The entry with the bodies that fit, then without any; none when its address and headers alone are past its room. */
function wholeThenWithoutBodies(
  read: ReadRequest,
  room: number,
  masked: <T>(value: T) => T,
  holdsSecret: (bytes: Buffer) => boolean,
): { entry: HarEntry; omitted: number }[] {
  const frameBytes = jsonBytes(read.frame);
  if (frameBytes > room) return [];
  const withoutBodies = {
    entry: { ...read.frame, request: { ...read.frame.request, ...bodyLeftOut(read) }, response: { ...read.frame.response, content: contentLeftOut(read) } },
    omitted: (read.body ? 1 : 0) + (read.postData !== null ? 1 : 0),
  };
  return [withBodies(read, room - frameBytes, masked, holdsSecret), withoutBodies];
}

/** The entry with the bodies that fit in `left` bytes (or are within their limit), and how many were left out. */
function withBodies(
  read: ReadRequest,
  left: number,
  masked: <T>(value: T) => T,
  holdsSecret: (bytes: Buffer) => boolean,
): { entry: HarEntry; omitted: number } {
  let omitted = 0;
  const content = { ...read.frame.response.content };
  const { body } = read;
  if (body) {
    // As the panel reads it: its charset, JSON's \u00XX escapes written plain, so the mask sees every spelling.
    const readBody = body.length <= BODY_LIMIT ? bodyOf(body, content.mimeType, 'utf-8') : undefined;
    const text =
      readBody?.text !== undefined && !readBody.truncated ? masked(readBody.kind === 'json' ? plainAsciiEscapes(readBody.text) : readBody.text) : undefined;
    const bytes = text !== undefined ? jsonBytes(text) : body.length <= BODY_LIMIT ? Math.ceil(body.length / 3) * 4 + 2 : Infinity;
    if (bytes > left) {
      content.comment = notKept(body.length);
      omitted++;
    } else if (text !== undefined) {
      left -= bytes;
      content.text = text;
    } else if (holdsSecret(body)) {
      content.comment = 'Body left out: it holds a secret of the bridge, which base64 cannot mask.';
      omitted++;
    } else {
      left -= bytes;
      content.text = body.toString('base64');
      content.encoding = 'base64';
    }
  }
  let postData: HarEntry['request']['postData'];
  if (read.postData !== null) {
    const mimeType = postedType(read.frame);
    const bytes = Buffer.byteLength(read.postData);
    const text = bytes <= BODY_LIMIT ? masked(read.postData) : undefined;
    if (text === undefined || jsonBytes(text) > left) {
      postData = { mimeType, text: '', comment: notKept(bytes) };
      omitted++;
    } else {
      postData = { mimeType, text };
    }
  }
  return {
    entry: {
      ...read.frame,
      request: { ...read.frame.request, ...(postData ? { postData } : {}) },
      response: { ...read.frame.response, content, bodySize: content.text !== undefined ? content.size : -1 },
    },
    omitted,
  };
}

/** The response's content when its body is left out for the budget. */
function contentLeftOut(read: ReadRequest): HarEntry['response']['content'] {
  return read.body ? { ...read.frame.response.content, comment: notKept(read.body.length) } : read.frame.response.content;
}

/** The request's body when it is left out for the budget. */
function bodyLeftOut(read: ReadRequest): Pick<HarEntry['request'], 'postData'> {
  if (read.postData === null) return {};
  return { postData: { mimeType: postedType(read.frame), text: '', comment: notKept(Buffer.byteLength(read.postData)) } };
}

/** The type of the body a request sent, from its own headers. */
const postedType = (frame: HarEntry) => frame.request.headers.find(h => h.name.toLowerCase() === 'content-type')?.value ?? '';

/**
 * A request whose address and headers do not fit in the file: its method, the start of its address, its status,
 * content type, redirect and timings, each string masked first (`masked`: for a frame not yet masked) and then
 * cut, so a secret across a cut leaves nothing of itself. Its comment says what was left out.
 */
function stubOf(frame: HarEntry, masked: (<T>(value: T) => T) | undefined): HarEntry {
  const short = (text: string) => fitted(masked ? masked(text) : text, STUB_STRING_BYTES);
  const { request, response } = frame;
  const headerBytes = (headers: HarHeader[]) => headers.reduce((sum, h) => sum + h.name.length + h.value.length, 0);
  return {
    startedDateTime: frame.startedDateTime,
    time: frame.time,
    request: {
      method: short(request.method),
      url: short(request.url),
      httpVersion: request.httpVersion,
      cookies: [],
      headers: [],
      queryString: [],
      headersSize: -1,
      bodySize: request.bodySize,
    },
    response: {
      status: response.status,
      statusText: short(response.statusText),
      httpVersion: response.httpVersion,
      cookies: [],
      headers: [],
      content: { size: response.content.size, mimeType: short(response.content.mimeType) },
      redirectURL: short(response.redirectURL),
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: frame.timings,
    _resourceType: short(frame._resourceType),
    comment:
      `Cut to keep the HAR within ${HAR_BUDGET} bytes: its address (${request.url.length} characters) is cut to its start; ` +
      `its query string, ${request.headers.length} request headers (${headerBytes(request.headers)} characters), ` +
      `${response.headers.length} response headers (${headerBytes(response.headers)} characters) and bodies are left out.`,
  };
}
