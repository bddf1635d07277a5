/**
 * One request's details for the panel's Network pane, read from Playwright's Request and Response
 * when the person opens it (never for every request): headers, both bodies, timing, the server's
 * address. `maskAndCut` masks what the page controls, then cuts the bodies to what the panel shows first.
 */
import type { Request, Response } from 'playwright';
import { prettyJsonStart } from './prettyJson';
import { REQUEST_BODY_LIMIT, type Header, type NetworkEntry, type RequestBody, type RequestDetail, type RequestDetailParams } from '../protocol/childMessages';

/** Types whose bytes are text whatever their charset says; anything else is sniffed. */
const TEXT_TYPES = /^(text\/|application\/(json|[\w.+-]*\+json|javascript|ecmascript|xml|[\w.+-]*\+xml|x-www-form-urlencoded|graphql|x-ndjson))/i;
const JSON_TYPES = /^application\/(json|[\w.+-]*\+json|x-ndjson)/i;
/** Bytes read past a cut, so that a secret across it is masked whole before the cut. */
const CUT_MARGIN = 64 * 1024;
/** The most of a body chat's copy pretty-prints. */
const MAX_PRETTY_CHARS = 8 * 1024 * 1024;

/** A request the panel's Network list holds (observer/networkLog.ts), as its details and a HAR read it. */
export interface ListedRequest {
  request: Request;
  entry: NetworkEntry;
  /** The response's body as it was kept when it ended (Preserve log). */
  keptBody?: Buffer;
  /** Its body from the browser, through the read the panel may have started ahead (observer/bodyReads.ts). */
  readBody: (response: Response) => Promise<Buffer>;
}

/**
 * `keptBody`: the response's body as it was kept when it ended (Preserve log), read in place of the browser's;
 * `readBody` reads the browser's (through a read the panel may have started ahead).
 */
export async function describeRequest(listed: ListedRequest, view: Omit<RequestDetailParams, 'id'> = {}): Promise<RequestDetail> {
  const { request, entry } = listed;
  const response = await request.response().catch(() => null);
  // The body is what takes longest: fetched beside the headers, not after them (its type from the headers the response came with).
  const [requestHeaders, responseHeaders, remote, body] = await Promise.all([
    request.headersArray().catch(() => [] as Header[]),
    response ? response.headersArray().catch(() => [] as Header[]) : Promise.resolve([] as Header[]),
    response ? response.serverAddr().catch(() => null) : Promise.resolve(null),
    responseBody(listed, response, response?.headers()['content-type'] ?? ''),
  ]);
  const requestType = headerValue(requestHeaders, 'content-type');
  const postData = request.postDataBuffer();
  return {
    id: entry.id,
    url: request.url(),
    method: request.method(),
    resourceType: request.resourceType(),
    status: response?.status() ?? entry.status,
    ...(response?.statusText() ? { statusText: response.statusText() } : {}),
    ...(entry.failure ? { failure: entry.failure } : {}),
    ...(remote ? { remoteAddress: remote.ipAddress.includes(':') ? `[${remote.ipAddress}]:${remote.port}` : `${remote.ipAddress}:${remote.port}` } : {}),
    timing: timingPhases(request),
    requestHeaders: requestHeaders.filter(header => !header.name.startsWith(':')),
    responseHeaders,
    requestBody: shaped(postData ? bodyOf(postData, requestType) : none('The request has no body.'), view),
    responseBody: shaped(body, view),
  };
}

/**
 * JSON pretty-printed, as the panel and chat show it, before masking (a secret spelled with escapes comes out
 * plain, and is then masked). The panel asks for the start only: that much is printed (a little more, so a
 * secret across the cut is masked whole), not the whole body.
 */
function shaped(body: RequestBody, view: Omit<RequestDetailParams, 'id'>): RequestBody {
  if (!view.pretty || body.kind !== 'json' || body.truncated || body.text === undefined) return body;
  // The panel's start, or chat's whole body (bounded: deep nesting indents every line, 40 KB could become 160 MB).
  const start = prettyJsonStart(body.text, (view.bodyChars ?? MAX_PRETTY_CHARS) + CUT_MARGIN);
  return start ? { ...body, text: start.text, pretty: true, ...(start.whole ? {} : { truncated: true }) } : body;
}

/**
 * JSON's `\u00XX` escapes of printable ASCII written as the characters (the same JSON): the mask then sees a
 * secret a server spelled that way, in a body shown as it came (not JSON after all, too deep to pretty-print).
 * `\"` and `\\` stay escaped; an escaped backslash is skipped whole, so `\\u0068` stays as it is.
 */
export function plainAsciiEscapes(text: string): string {
  return text.replace(/\\(?:\\|u00([2-7][0-9a-fA-F]))/g, (all, hex: string | undefined) => {
    const code = hex ? parseInt(hex, 16) : 0;
    return hex && code !== 0x22 && code !== 0x5c && code !== 0x7f ? String.fromCharCode(code) : all;
  });
}

/**
 * Masks the fields a page controls (never the bridge's own: kind, timing phases, the id) and then cuts each
 * body: to `bodyChars` (the panel's first look) and in any case to REQUEST_BODY_LIMIT (read a little past it).
 */
export function maskAndCut(detail: RequestDetail, maskText: (text: string) => string, bodyChars: number | undefined): RequestDetail {
  // The mask also makes a placeholder the page wrote itself inert (core/egress/pagePlaceholders.ts): a copied
  // cURL reads a secret for a placeholder, and a page could write `<secret>BANK_PW</secret>` to the bank itself.
  const mask = maskText;
  const limit = Math.min(bodyChars ?? REQUEST_BODY_LIMIT, REQUEST_BODY_LIMIT);
  const body = (part: RequestBody): RequestBody => {
    const masked: RequestBody = {
      ...part,
      mimeType: mask(part.mimeType),
      ...(part.text !== undefined ? { text: mask(part.kind === 'json' ? plainAsciiEscapes(part.text) : part.text) } : {}),
      ...(part.base64 !== undefined ? { base64: mask(part.base64) } : {}),
      ...(part.reason !== undefined ? { reason: mask(part.reason) } : {}),
    };
    return masked.text !== undefined && masked.text.length > limit ? { ...masked, text: masked.text.slice(0, limit), truncated: true } : masked;
  };
  const headers = (list: Header[]) => list.map(header => ({ name: mask(header.name), value: mask(header.value) }));
  return {
    ...detail,
    url: mask(detail.url),
    method: mask(detail.method),
    ...(detail.statusText !== undefined ? { statusText: mask(detail.statusText) } : {}),
    ...(detail.failure !== undefined ? { failure: mask(detail.failure) } : {}),
    ...(detail.remoteAddress !== undefined ? { remoteAddress: mask(detail.remoteAddress) } : {}),
    requestHeaders: headers(detail.requestHeaders),
    responseHeaders: headers(detail.responseHeaders),
    requestBody: body(detail.requestBody),
    responseBody: body(detail.responseBody),
  };
}

async function responseBody({ request, entry, keptBody, readBody }: ListedRequest, response: Response | null, contentType: string): Promise<RequestBody> {
  if (entry.failure) return unavailable(`The request failed: ${entry.failure}`, contentType);
  if (!response) return unavailable('No response yet.', contentType);
  if (response.status() >= 300 && response.status() < 400) return none('A redirect has no body.', contentType);
  if (keptBody) return bodyOf(keptBody, contentType, 'utf-8');
  // A body still streaming (a page that never reads it, an endless stream) would keep us waiting.
  if (entry.durationMs === undefined || request.timing().responseEnd < 0) {
    const finished = await Promise.race([
      response.finished().then(
        () => true,
        () => false,
      ),
      new Promise<boolean>(resolve => setTimeout(() => resolve(false), 2000)),
    ]);
    if (!finished) return unavailable('Still loading: open it again once it has finished.', contentType);
  }
  try {
    return bodyOf(await readBody(response), contentType, 'utf-8');
  } catch (error) {
    // Chromium keeps bodies in a bounded buffer: old or large ones are gone, and a page that navigated away took its own.
    return unavailable(
      `The browser no longer has this body (${(error as Error).message.split('\n')[0]}). With Preserve log on, bodies are kept as each request ends.`,
      contentType,
    );
  }
}

/**
 * `textIn`: how a text body's bytes are spelled. A request's are as the page sent them (its declared charset);
 * a response's come from Playwright as the browser decoded them, written again as UTF-8 whatever the charset
 * said (measured: a latin-1 "é" comes as c3 a9, UTF-16 text as plain ASCII).
 */
export function bodyOf(bytes: Buffer, contentType: string, textIn: 'declared' | 'utf-8' = 'declared'): RequestBody {
  // As the server spelled it (a secret in it is masked as spelled); compared lowercased.
  const mimeType = contentType.split(';')[0].trim() || 'application/octet-stream';
  const type = mimeType.toLowerCase();
  const size = bytes.length;
  if (!size) return none('Empty.', mimeType);
  const truncated = size > REQUEST_BODY_LIMIT;
  // A little past the limit: the text is cut to it only once masked (a cut first could leave half a secret).
  const head = truncated ? bytes.subarray(0, REQUEST_BODY_LIMIT + CUT_MARGIN) : bytes;
  const more = truncated ? { truncated } : {};
  if (type.startsWith('image/') && type !== 'image/svg+xml') {
    return truncated
      ? { kind: 'binary', mimeType, size, reason: 'An image too large to preview.' }
      : { kind: 'image', mimeType, size, base64: bytes.toString('base64') };
  }
  if (TEXT_TYPES.test(type) || type === 'image/svg+xml' || looksLikeText(head)) {
    const text = new TextDecoder(textIn === 'utf-8' ? 'utf-8' : charsetOf(contentType), { fatal: false }).decode(head);
    return { kind: JSON_TYPES.test(type) ? 'json' : 'text', mimeType, size, text, ...more };
  }
  return { kind: 'binary', mimeType, size, reason: `Binary (${mimeType}).` };
}

function charsetOf(contentType: string): string {
  const label = /charset=["']?([\w-]+)/i.exec(contentType)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return 'utf-8';
  }
}

/** No NUL in the first KB and mostly printable: text whatever the server called it. */
function looksLikeText(bytes: Buffer): boolean {
  const sample = bytes.subarray(0, 1024);
  if (sample.includes(0)) return false;
  let control = 0;
  for (const byte of sample) if (byte < 9 || (byte > 13 && byte < 32)) control++;
  return control <= sample.length / 50;
}

function none(reason: string, mimeType = ''): RequestBody {
  return { kind: 'none', mimeType, size: 0, reason };
}

function unavailable(reason: string, contentType: string): RequestBody {
  return { kind: 'unavailable', mimeType: contentType.split(';')[0].trim(), size: 0, reason };
}

function headerValue(headers: Header[], name: string): string {
  return headers.find(header => header.name.toLowerCase() === name)?.value ?? '';
}

/**
 * A finished request's start (ms since epoch) and its whole time, from the browser's own timing: what the list,
 * the waterfall, the detail's Total and the HAR all say. Undefined when the browser gave no timing.
 */
export function requestSpan(request: Request): { startedAt: number; totalMs: number } | undefined {
  const t = request.timing();
  if (!(t.startTime > 0) || !(t.responseEnd >= 0)) return undefined;
  return { startedAt: t.startTime, totalMs: Math.round(t.responseEnd * 10) / 10 };
}

/** Playwright's timing (ms from the start, -1 for what did not happen) as the phases DevTools shows. */
function timingPhases(request: Request): RequestDetail['timing'] {
  const t = request.timing();
  const span = (phase: string, from: number, to: number) => (from >= 0 && to >= from ? [{ phase, ms: Math.round((to - from) * 10) / 10 }] : []);
  const connectEnd = t.secureConnectionStart >= 0 ? t.secureConnectionStart : t.connectEnd;
  return [
    ...span('DNS lookup', t.domainLookupStart, t.domainLookupEnd),
    ...span('Connecting', t.connectStart, connectEnd),
    ...span('TLS', t.secureConnectionStart, t.connectEnd),
    ...span('Waiting for the server', t.requestStart, t.responseStart),
    ...span('Downloading', t.responseStart, t.responseEnd),
    ...span('Total', 0, t.responseEnd),
  ];
}
