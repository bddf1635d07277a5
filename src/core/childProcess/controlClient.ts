/**
 * The host's side of the control channel (protocol/controlChannel.ts), over the MCP client that talks
 * to the child: one typed `request`, one typed `notify`, and the child's events to handlers. Derived
 * from the tables, so a method is named, shaped and timed in one place.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { z } from 'zod';
import {
  CHILD_EVENTS,
  CONTROL_NOTIFICATIONS,
  CONTROL_REQUESTS,
  messageSchema,
  type ChildEventName,
  type ChildEventParams,
  type ControlNotificationName,
  type ControlNotificationParams,
  type ControlRequestName,
  type ControlRequestParams,
  type ControlRequestResult,
} from '../../protocol/controlChannel';

export interface ControlClient {
  /** Asks the child; the result is checked against the method's schema; fails after the method's timeout. */
  request<K extends ControlRequestName>(name: K, params: ControlRequestParams<K>): Promise<ControlRequestResult<K>>;
  /** Tells the child; dropped once it has exited (fire and forget: the person's input must not queue). */
  notify<K extends ControlNotificationName>(name: K, params: ControlNotificationParams<K>): void;
}

export type ChildEventHandlers = { [K in ChildEventName]: (params: ChildEventParams<K>) => void };

export function controlClient(client: Client, exited: () => boolean): ControlClient {
  return {
    async request(name, params) {
      const entry = CONTROL_REQUESTS[name];
      return client.request({ method: entry.method, params: params as Record<string, unknown> }, entry.result, { timeout: entry.timeoutMs }) as Promise<
        ControlRequestResult<typeof name>
      >;
    },
    notify(name, params) {
      if (exited()) return;
      void client.notification({ method: CONTROL_NOTIFICATIONS[name].method, params: params as Record<string, unknown> }).catch(() => undefined);
    },
  };
}

/** The child's events, each checked against its schema, to the handler of its name. */
export function listenToChildEvents(client: Client, handlers: ChildEventHandlers): void {
  for (const name of Object.keys(CHILD_EVENTS) as ChildEventName[]) {
    const handler = handlers[name] as (params: unknown) => void;
    const entry = CHILD_EVENTS[name] as { method: string; params: z.ZodType };
    client.setNotificationHandler(messageSchema(entry), async notification => handler(notification.params));
  }
}
