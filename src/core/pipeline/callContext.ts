/**
 * What a tool call carries through the pipeline, and what its steps may ask of the supervisor. A step
 * reads the call, may change its arguments before it is sent, and puts what it decides into the one
 * result builder (`call.result`); it never writes a result itself.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Door } from '../../protocol/panelMessages';
import type { CallMarks } from '../../protocol/callMarks';
import type { CheckpointFacts } from '../../protocol/childMessages';
import type { ChildConnection, ClientSession } from '../childProcess/childProcess';
import type { PersonControl } from '../supervision/personControl';
import type { ContextNotes } from '../supervision/contextNotes';
export type { PendingNote } from '../supervision/pendingNote';
import type { ToolPolicySettings } from '../tools/toolPolicy';
import type { CallResult } from './callResult';

/** What a door says of a call beyond its name and arguments. */
export interface SupervisedCallOptions {
  door?: Door;
  /** The MCP client session the call came through, for isolation `perClient`. */
  session?: ClientSession;
  signal?: AbortSignal;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /**
   * The language-model door's confirmation showed a code file's text: the call runs exactly that text
   * (tools/runCode.ts), or is refused with the reason when the file changed meanwhile.
   */
  codeShown?: (filename: string) => { code: string } | { error: string };
}

export interface CallContext {
  readonly name: string;
  /** What is sent: a step may resolve a file name or put the shown code in. */
  args: Record<string, unknown> | undefined;
  readonly door: Door;
  /** A model made the call (chat's tools or an MCP client), not the panel's own buttons: notes are for it. */
  readonly forModel: boolean;
  readonly options: SupervisedCallOptions;
  readonly result: CallResult;
  /** The child the call goes to, once the `connect` step has it. */
  connection?: ChildConnection;
  /** The note that the browser was lost, taken for this call (given back if the call never reached the child). */
  lostNotice?: string;
  /** What the child marked on its answer (protocol/callMarks.ts), for the steps after the call. */
  marks?: CallMarks;
  /** Set by `send` when the call provably never reached the child: the steps from the tool policy on run again, once. */
  resend?: boolean;
  /** The call is on its second (and last) sending. */
  resent?: boolean;
  /** A host tool's own checkpoint (a restore: the state it put the browser in), for the call's step. */
  checkpoint?: CheckpointFacts;
}

/**
 * What a tool the extension host answers itself says (its record's handler is `host`): words for the model,
 * and whether it failed (refused, or could not do what was asked). It never writes a result: the pipeline does.
 */
export interface HostToolAnswer {
  text: string;
  failed?: boolean;
  checkpoint?: CheckpointFacts;
}

/** A host tool's handler, run by the pipeline in place of sending the call to the child. */
export type HostTool = (args: Record<string, unknown>, call: { door: Door; signal?: AbortSignal }) => Promise<HostToolAnswer>;

/** What the steps need of the supervisor that owns the child. */
export interface CallEnvironment {
  toolPolicy(): ToolPolicySettings;
  /** Why a capability tool cannot run in the child that runs (a setting off, or turned on after it started). */
  capabilityHint?(tool: string): string | undefined;
  readonly person: PersonControl;
  handBackTimeoutMs(): number;
  callTimeoutMs(): number;
  /** The ready child, started if needed (shared by every caller that asks meanwhile). */
  ready(): Promise<ChildConnection>;
  /** The tool as the child lists it (for its schema). */
  tool(name: string): Tool | undefined;
  /** How the last child ended, for a call it took down with it. */
  lastExit(): string;
  /** The handler of a tool the host answers itself, once its feature registered it. */
  hostTool(name: string): HostTool | undefined;
  /** The notes a model reads before its next result, per context (the browser lost, what the person or the panel changed): one owner, the supervisor's. */
  readonly notes: ContextNotes;
}

/** One named step: what it decides goes into `call.result`; a refusal stops the steps before the call. */
export interface CallStep {
  readonly name: string;
  run(call: CallContext, env: CallEnvironment): void | Promise<void>;
}
