/**
 * A tools/call of a known MCP session, answered straight from Node's HTTP request. Through the SDK's
 * Streamable HTTP transport each call crossed a web-standard adapter (a Request and a ReadableStream
 * made for it, an SSE stream opened and closed for one message, AbortSignals chained, the JSON-RPC
 * message validated twice): about 4-8 ms a call on these machines, most of the MCP door's cost over a
 * bare call. Here the call is validated once and answered with one JSON body, or with an SSE stream when
 * the client asked for progress. Everything else (initialize, tools/list, batches, GET and DELETE) still
 * goes through the SDK's transport, and so does a call this path does not recognise.
 */
import type * as http from 'http';
import { CallToolRequestSchema, CallToolResult, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

type CallToolParams = ReturnType<typeof CallToolRequestSchema.parse>['params'];
type RequestId = string | number;
type Progress = { progress: number; total?: number; message?: string };

/** A known session's tools/call, as this path runs it. */
export interface FastToolCall {
  run(params: CallToolParams, signal: AbortSignal, onProgress: ((progress: Progress) => void) | undefined): Promise<CallToolResult>;
}

/** The calls of one session that run on this path, so that the client's notifications/cancelled reaches them. */
export class FastCallsInFlight {
  private readonly calls = new Map<RequestId, AbortController>();

  add(id: RequestId): AbortController {
    const controller = new AbortController();
    this.calls.set(id, controller);
    return controller;
  }

  delete(id: RequestId, controller: AbortController): void {
    if (this.calls.get(id) === controller) this.calls.delete(id);
  }

  /** Cancels the call with this id when it runs on this path; false when it is not one of ours. */
  cancel(id: unknown): boolean {
    const controller = typeof id === 'string' || typeof id === 'number' ? this.calls.get(id) : undefined;
    if (!controller) return false;
    controller.abort();
    return true;
  }

  abortAll(): void {
    for (const controller of this.calls.values()) controller.abort();
    this.calls.clear();
  }
}

/**
 * The parsed tools/call when the request is one this path answers as the SDK's transport would: a single
 * JSON-RPC request, a client that accepts both JSON and SSE, JSON content, a supported protocol version.
 */
export function fastToolCall(req: http.IncomingMessage, body: unknown): { id: RequestId; params: CallToolParams } | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || (body as { method?: unknown }).method !== 'tools/call') return undefined;
  const accept = req.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  // The media type itself (parameters such as charset allowed), as the SDK's transport checks it.
  if (!/^application\/json\s*(;|$)/i.test((req.headers['content-type'] ?? '').trim())) return undefined;
  const version = req.headers['mcp-protocol-version'];
  if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  const id = (body as { id?: unknown }).id;
  if ((typeof id !== 'string' && typeof id !== 'number') || (body as { jsonrpc?: unknown }).jsonrpc !== '2.0') return undefined;
  const parsed = CallToolRequestSchema.safeParse(body);
  return parsed.success ? { id, params: parsed.data.params } : undefined;
}

/** The id of a notifications/cancelled, when that is what the body is. */
export function cancelledRequestId(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || (body as { method?: unknown }).method !== 'notifications/cancelled') return undefined;
  return (body as { params?: { requestId?: unknown } }).params?.requestId;
}

/**
 * Runs the call and answers it: one JSON body, or (when the client sent a progress token) an SSE stream
 * with each progress notification and then the result, as the SDK's transport would send them. A client
 * that goes away or cancels aborts the call.
 */
export async function answerToolCall(
  res: http.ServerResponse,
  sessionId: string,
  call: { id: RequestId; params: CallToolParams },
  target: FastToolCall,
  inFlight: FastCallsInFlight,
): Promise<void> {
  const controller = inFlight.add(call.id);
  const onClose = () => {
    if (!res.writableFinished) controller.abort();
  };
  res.on('close', onClose);
  const progressToken = call.params._meta?.progressToken;
  let streaming = false;
  const openStream = () => {
    if (streaming) return;
    streaming = true;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'mcp-session-id': sessionId });
  };
  const send = (message: object) => res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  const onProgress =
    progressToken === undefined
      ? undefined
      : (progress: Progress) => {
          if (res.writableEnded) return;
          openStream();
          send({ jsonrpc: '2.0', method: 'notifications/progress', params: { ...progress, progressToken } });
        };
  let reply: object;
  try {
    reply = { jsonrpc: '2.0', id: call.id, result: await target.run(call.params, controller.signal, onProgress) };
  } catch (error) {
    reply = { jsonrpc: '2.0', id: call.id, error: { code: -32603, message: (error as Error).message } };
  } finally {
    inFlight.delete(call.id, controller);
    res.off('close', onClose);
  }
  if (res.writableEnded || res.destroyed) return;
  if (streaming) {
    send(reply);
    res.end();
    return;
  }
  const text = JSON.stringify(reply);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'mcp-session-id': sessionId });
  res.end(text);
}
