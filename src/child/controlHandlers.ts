/**
 * The child's side of the control channel (protocol/controlChannel.ts): every request and
 * notification the host may send is registered from the tables, with one handler each (the mapped
 * type makes a missing one a compile error), and the child's own events go out through one typed `emit`.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { z } from 'zod';
import {
  CHILD_EVENTS,
  CONTROL_NOTIFICATIONS,
  CONTROL_REQUESTS,
  messageSchema,
  type ChildEventName,
  type ChildEventParams,
  type ControlNotificationName,
  type ControlRequestName,
  type ControlRequestResult,
} from '../protocol/controlChannel';

type Parsed<S> = S extends z.ZodType ? z.output<S> : never;

export type ControlHandlers = { [K in ControlRequestName]: (params: Parsed<(typeof CONTROL_REQUESTS)[K]['params']>) => Promise<ControlRequestResult<K>> } & {
  [K in ControlNotificationName]: (params: Parsed<(typeof CONTROL_NOTIFICATIONS)[K]['params']>) => void | Promise<void>;
};

export function serveControl(server: Server, handlers: ControlHandlers): void {
  for (const name of Object.keys(CONTROL_REQUESTS) as ControlRequestName[]) {
    const handler = handlers[name] as (params: unknown) => Promise<Record<string, unknown>>;
    const entry = CONTROL_REQUESTS[name] as { method: string; params: z.ZodType };
    server.setRequestHandler(messageSchema(entry), async request => handler(request.params));
  }
  for (const name of Object.keys(CONTROL_NOTIFICATIONS) as ControlNotificationName[]) {
    const handler = handlers[name] as (params: unknown) => void | Promise<void>;
    const entry = CONTROL_NOTIFICATIONS[name] as { method: string; params: z.ZodType };
    server.setNotificationHandler(messageSchema(entry), async notification => handler(notification.params));
  }
}

/** Sends one of the child's events to the host; a host that is gone drops it. */
export function emitToHost<K extends ChildEventName>(server: Server, name: K, params: ChildEventParams<K>): void {
  void server.notification({ method: CHILD_EVENTS[name].method, params: params as Record<string, unknown> }).catch(() => undefined);
}
