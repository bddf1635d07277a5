/**
 * A trace as the browser hands it over at its end (`Tracing.start` with `transferMode: 'ReturnAsStream'`): a gzip
 * stream of DevTools' JSON, one event a line, read in chunks over the page's CDP session and decompressed as it
 * comes. What crosses the pipe is a fraction of the trace (a page's repeated text compresses to almost nothing: 40
 * marks of 1 MB, 65 MB of JSON, came as 0.3 MB and were read in 6 s, where the same events as protocol messages
 * took 11 s, measured), and each event is read and given on as it arrives, so the trace is never held whole as
 * text. A line longer than MAX_LINE_CHARS (only a page's own text makes one) is skipped unread, and so is every
 * line once the reader wants no more (`bound`): a page that floods the trace is not parsed past what is kept.
 */
import type { CDPSession } from 'playwright';
import { StringDecoder } from 'string_decoder';
import { createGunzip } from 'zlib';
import type { TraceEvent } from './traceEvent';

const CHUNK_BYTES = 1024 * 1024;
/** An event line past this is skipped: a mark name or detail of more than 16 MB is dropped, not cut. */
const MAX_LINE_CHARS = 16 * 1024 * 1024;
/** How the stream opens its list of events, and how the last event's line ends it (the trace's metadata follows). */
const EVENTS_OPEN = '{"traceEvents":[';
const EVENTS_CLOSE = '],"metadata":';

/** What the reader keeps: once it `wants` no more, each further event line is `skipped` unparsed, and counted. */
export interface TraceStreamBound {
  wants(): boolean;
  skipped(): void;
}

/**
 * Reads the stream to its end, giving each event to `onEvent` with the length of its line; the stream is closed
 * after, read whole or not.
 */
export async function readTraceStream(
  cdp: CDPSession,
  handle: string,
  onEvent: (event: TraceEvent, lineChars: number) => void,
  bound: TraceStreamBound = { wants: () => true, skipped: () => undefined },
): Promise<void> {
  let inEvents = true;
  const take = (line: string) => {
    if (!inEvents) return;
    let json = line.startsWith(EVENTS_OPEN) ? line.slice(EVENTS_OPEN.length) : line;
    if (json.endsWith(EVENTS_CLOSE) || json.startsWith(']')) {
      inEvents = false;
      json = json.startsWith(']') ? '' : json.slice(0, -EVENTS_CLOSE.length);
    } else if (json.endsWith(',')) {
      json = json.slice(0, -1);
    }
    if (!json) return;
    if (!bound.wants()) {
      bound.skipped();
      return;
    }
    try {
      const event = JSON.parse(json) as unknown;
      if (event && typeof event === 'object') onEvent(event as TraceEvent, json.length);
    } catch {
      // Not an event line: the stream's own framing.
    }
  };

  const gunzip = createGunzip();
  const decoder = new StringDecoder('utf8');
  let line = '';
  let overlong = false;
  const piece = (text: string) => {
    if (overlong) return;
    line += text;
    if (line.length > MAX_LINE_CHARS) {
      overlong = true;
      line = '';
    }
  };
  const lineEnds = () => {
    if (!overlong) take(line);
    else if (inEvents) bound.skipped();
    line = '';
    overlong = false;
  };
  gunzip.on('data', (chunk: Buffer) => {
    const text = decoder.write(chunk);
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; start = end + 1, end = text.indexOf('\n', start)) {
      piece(text.slice(start, end));
      lineEnds();
    }
    piece(text.slice(start));
  });
  const decompressed = new Promise<void>((resolve, reject) => {
    gunzip.on('end', () => {
      piece(decoder.end());
      lineEnds();
      resolve();
    });
    gunzip.on('error', reject);
  });
  // Awaited below once the stream is read; a failure before then is that wait's, not an unhandled one.
  decompressed.catch(() => undefined);

  try {
    for (;;) {
      const { data, base64Encoded, eof } = await cdp.send('IO.read', { handle, size: CHUNK_BYTES });
      gunzip.write(Buffer.from(data, base64Encoded ? 'base64' : 'utf8'));
      if (eof) break;
    }
    gunzip.end();
    await decompressed;
  } finally {
    gunzip.destroy();
    await cdp.send('IO.close', { handle }).catch(() => undefined);
  }
}
