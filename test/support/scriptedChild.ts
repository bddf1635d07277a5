import { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { CallOptions, ChildConnection, ChildEvents, NotSentError } from '../../src/core/childProcess/childProcess';
import type { ControlRequestName, ControlRequestResult } from '../../src/protocol/controlChannel';

/**
 * A scripted child: the supervisor's state machine is the unit here, so the child is a stand-in
 * whose deaths, slow starts and failures the test controls exactly.
 */
export class ScriptedChild implements ChildConnection {
  static nextPid = 1000;
  readonly pid = ScriptedChild.nextPid++;
  exited = false;
  disposeCount = 0;
  readonly calls: { name: string; args: unknown }[] = [];
  private held: { reject(error: Error): void }[] = [];
  holdCalls = false;
  failListTools = false;
  /** `_meta` for the next result, as the real child marks a browser lost before a call. */
  nextMeta: Record<string, unknown> | undefined;
  /** When set, answers each call instead of the default "<name> done by <pid>". */
  respond: ((name: string, args: Record<string, unknown> | undefined) => CallToolResult) | undefined;

  constructor(
    readonly events: ChildEvents,
    readonly tools: Tool[],
  ) {}

  async listTools(): Promise<Tool[]> {
    if (this.failListTools) throw new Error('tools/list answered garbage');
    return this.tools;
  }

  /** What a real child's spawn spec says of it (output folder, isolation); absent unless a test sets it. */
  facts: ChildConnection['facts'];
  /** Set: the next call finds the process gone (its pipe closed) before the call could be written. */
  goneBeforeNextCall = false;

  callTool(name: string, args: Record<string, unknown> | undefined, _options: CallOptions): Promise<CallToolResult> {
    if (this.goneBeforeNextCall) {
      this.goneBeforeNextCall = false;
      this.die();
    }
    if (this.exited) return Promise.reject(new NotSentError('gone'));
    this.calls.push({ name, args });
    if (this.holdCalls) return new Promise((_, reject) => this.held.push({ reject }));
    const _meta = this.nextMeta;
    this.nextMeta = undefined;
    if (this.respond) return Promise.resolve(this.respond(name, args));
    return Promise.resolve({ content: [{ type: 'text', text: `${name} done by ${this.pid}` }], ...(_meta ? { _meta } : {}) });
  }

  /** The process dies: calls in flight fail as a closed connection does, and the exit is reported. */
  die(): void {
    this.exited = true;
    for (const call of this.held.splice(0)) call.reject(new Error('MCP error -32000: Connection closed'));
    this.events.onExit('the child process was killed by SIGKILL');
  }

  /** What the supervisor sent on the control channel, by kind, as the tests read it. */
  liveViews: unknown[] = [];
  /** Sessions the supervisor said were closed. */
  readonly closedSessions: string[] = [];
  inputs: unknown[] = [];
  pageActions: unknown[] = [];

  notify: ChildConnection['notify'] = (name, params) => {
    if (this.exited) return;
    if (name === 'liveView') this.liveViews.push(params);
    else if (name === 'closeSession') this.closedSessions.push((params as { sessionId: string }).sessionId);
    else if (name === 'input') this.inputs.push((params as { event: unknown }).event);
    // watchContext: the scripted child has one session only.
  };

  request: ChildConnection['request'] = async (name, params) => {
    const answers: { [K in ControlRequestName]: () => ControlRequestResult<K> } = {
      storageState: () => ({ state: '{"cookies":[],"origins":[]}' }),
      memory: () => ({ heapUsedBytes: 0, rssBytes: 0 }),
      pageAction: () => {
        this.pageActions.push((params as { pageAction: unknown }).pageAction);
        return { ok: true, message: 'done' };
      },
      pick: () => ({}),
      // The person did nothing a recorder would see.
      recordPerson: () => ({ code: [] }),
      screenshot: () => {
        throw new Error('not scripted');
      },
      checkpoint: () => ({ url: 'about:blank', title: '', tabCount: 1 }),
      restoreCheckpoint: () => {
        throw new Error('not scripted');
      },
      requestDetail: () => {
        throw new Error('not scripted');
      },
      deviceList: () => ({ devices: [] }),
      networkConditions: () => params as ControlRequestResult<'networkConditions'>,
      har: () => ({ har: '{"log":{"version":"1.2","creator":{"name":"scripted","version":"0"},"entries":[]}}', entries: 0, omittedBodies: 0 }),
      cdpEndpoint: () => {
        throw new Error('not scripted');
      },
      cdpChallengeDone: () => ({}),
    };
    return answers[name]() as ControlRequestResult<typeof name>;
  };

  /** When set, dispose finishes only once this opens (an old browser slow to let go of its profile). */
  disposeGate: Promise<void> | undefined;

  async dispose(): Promise<void> {
    this.disposeCount++;
    await this.disposeGate;
    this.exited = true;
  }
}
