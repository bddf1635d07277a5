/**
 * The timeline's steps as a Playwright trace (.zip) that `npx playwright show-trace` and `npx playwright
 * trace` open: each step an action named as Activity lists it, with its arguments, its outcome, the
 * picture the panel showed after it, its console lines and its snapshot as an attachment. Written from
 * the checkpoints, not by Playwright's tracing: tracing on for a whole session slowed each call by
 * 20-30 % here (88-99 ms clicks became 127-129 ms), far over what a checkpoint may cost. Storage
 * (cookies and the rest) never goes into a trace: it is a file people share.
 */
import { createHash } from 'crypto';
import type { ConsoleRow } from '../../protocol/panelMessages';
import type { TimelineStep } from './timeline';
import { zipArchive, type ZipEntry } from './zipArchive';

/** The trace format of the Playwright the bridge ships (its context-options `version`). */
export const TRACE_FORMAT_VERSION = 10;

const PAGE_ID = 'page@bridge';

export interface TraceOptions {
  browserName: string;
  viewport: { width: number; height: number };
  title: string;
}

const CONSOLE_TYPES: Record<ConsoleRow['level'], string> = { error: 'error', warning: 'warning', info: 'log', debug: 'debug' };

export function sessionTrace(steps: readonly TimelineStep[], options: TraceOptions): Buffer {
  const start = steps.length ? Math.min(...steps.map(step => step.startedAt)) : Date.now();
  const time = (epochMs: number) => Math.max(0, epochMs - start);
  const events: object[] = [
    {
      version: TRACE_FORMAT_VERSION,
      type: 'context-options',
      origin: 'library',
      browserName: options.browserName,
      options: { viewport: options.viewport },
      platform: process.platform,
      wallTime: start,
      monotonicTime: 0,
      sdkLanguage: 'javascript',
      title: options.title,
    },
    { type: 'event', time: 0, class: 'BrowserContext', method: 'page', params: { pageId: PAGE_ID } },
  ];
  const resources: ZipEntry[] = [];
  const written = new Set<string>();
  const resource = (data: Buffer, extension: string): string => {
    const name = `${createHash('sha1').update(data).digest('hex')}.${extension}`;
    if (!written.has(name)) {
      written.add(name);
      resources.push({ name: `resources/${name}`, data });
    }
    return name;
  };
  for (const step of steps) {
    const callId = `bridge@${step.index}`;
    events.push({
      type: 'before',
      callId,
      startTime: time(step.startedAt),
      class: 'Bridge',
      method: step.tool,
      params: step.args,
      title: `${step.index}. ${step.title}`,
    });
    for (const row of step.console) {
      events.push({
        type: 'console',
        messageType: CONSOLE_TYPES[row.level],
        text: row.text,
        args: [],
        location: { url: row.location ?? '', lineNumber: 0, columnNumber: 0 },
        time: time(row.time),
        pageId: PAGE_ID,
      });
    }
    const frame = step.frame?.value;
    if (frame) {
      const file = `screencast/${PAGE_ID}-${step.index}.jpeg`;
      resources.push({ name: `resources/${file}`, data: Buffer.from(frame.data, 'base64') });
      events.push({ type: 'screencast-frame', pageId: PAGE_ID, file, width: frame.width, height: frame.height, timestamp: time(step.at) });
    }
    const snapshot = step.snapshot?.value;
    const attachments =
      snapshot === undefined
        ? []
        : [{ name: `snapshot after step ${step.index}.yml`, contentType: 'text/yaml', sha1: resource(Buffer.from(snapshot, 'utf8'), 'yml') }];
    events.push({
      type: 'after',
      callId,
      endTime: Math.max(time(step.at), time(step.startedAt) + 1),
      attachments,
      ...(step.ok ? {} : { error: { name: 'Error', message: step.error ?? `${step.tool} failed` } }),
    });
  }
  return zipArchive([
    { name: 'trace.trace', data: Buffer.from(events.map(event => JSON.stringify(event)).join('\n') + '\n', 'utf8') },
    { name: 'trace.network', data: Buffer.alloc(0) },
    ...resources,
  ]);
}
