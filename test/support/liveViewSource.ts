/** The supervisor's events as the live-view store listens to them, fired by a unit test (the unit is the store). */
import { Emitter } from '../../src/core/emitter';
import type { LiveViewSource } from '../../src/core/liveView/liveViewStore';
import type { ObservationEvent } from '../../src/protocol/childMessages';
import type { ToolCallRecord } from '../../src/core/supervision/activityLog';
import { healthOf, type HostHealth } from '../../src/core/supervision/browserHealth';

export function fakeLiveViewSource(calls = new Emitter<ToolCallRecord>()) {
  const observations = new Emitter<ObservationEvent>();
  const healthChanges = new Emitter<HostHealth>();
  /** What the store told the browser's side of Preserve log, in order. */
  const preserveNetworkLog: boolean[] = [];
  const events: LiveViewSource = {
    health: healthOf({ state: 'ready', generation: 1 }, undefined),
    onDidChangeHealth: healthChanges.event,
    onObservation: observations.event,
    onToolCall: calls.event,
    personHasControl: false,
    tabs: [],
    onDidChangeControl: new Emitter<boolean>().event,
    wantThumbnails: () => ({ dispose: () => undefined }),
    setPreserveNetworkLog: on => void preserveNetworkLog.push(on),
  };
  return { events, observations, calls, healthChanges, preserveNetworkLog };
}
