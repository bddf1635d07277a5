import { ChildProcess, spawn } from 'child_process';
import { Writable } from 'stream';
import * as fs from 'fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolResult, JSONRPCMessage, Tool, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { BrowserStateParams, CLIENT_NAME_META, ObservationEvent, SESSION_META } from '../../protocol/childMessages';
import { controlClient, listenToChildEvents, type ControlClient } from './controlClient';
import { withDeadline } from '../supervision/deadline';
import { identify, isSameProcess, killTree, KnownProcess, listDescendants } from './processTree';

/** How to start a child: the program, its arguments and its whole environment. */
export interface ChildSpawnSpec {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Written to the child's private pipe (fd 3) and closed: secrets never travel in env or argv. */
  privateInput?: string;
  /** What the host's call pipeline must know of the child it started. */
  facts?: ChildFacts;
}

/** The settings a child was started with that the host's call pipeline applies to each call. */
export interface ChildFacts {
  /** Where relative file names go (and are read from). */
  outputDir: string;
  isolation: 'shared' | 'perClient';
  allowRunCodeForClients: boolean;
}

/** What a child reports while it lives. */
export interface ChildEvents {
  onExit(why: string): void;
  onToolsChanged(): void;
  onBrowserState(state: BrowserStateParams): void;
  onObservation(event: ObservationEvent): void;
  onStderr(line: string): void;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs: number;
  /** The MCP client session a call came through (isolation `perClient` gives it its own context). */
  session?: ClientSession;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** An MCP client session at the endpoint: its id and the client's own name. */
export interface ClientSession {
  id: string;
  client?: string;
}

/** One live child process and its MCP connection: one generation, in the supervisor's words. */
export interface ChildConnection {
  readonly pid: number | undefined;
  readonly exited: boolean;
  /** Absent for a scripted child in tests: the pipeline then resolves no file names and refuses nothing by isolation. */
  readonly facts?: ChildFacts;
  listTools(): Promise<Tool[]>;
  callTool(name: string, args: Record<string, unknown> | undefined, options: CallOptions): Promise<CallToolResult>;
  /** The control channel (protocol/controlChannel.ts): the panel's features and the host's questions to the child. */
  request: ControlClient['request'];
  notify: ControlClient['notify'];
  /** Ends the child and every process below it. Idempotent. */
  dispose(graceMs?: number): Promise<void>;
}

export type ChildFactory = (events: ChildEvents) => Promise<ChildConnection>;

/** Thrown when a call could not even be sent because the child had already gone: safe to send elsewhere. */
export class NotSentError extends Error {}

// Screenshots of long pages come back as several MB of base64; the SDK's 10 MB default is too tight.
const MAX_MESSAGE_BYTES = 128 * 1024 * 1024;

/**
 * MCP over a child's stdio, written here rather than using the SDK's stdio client transport so we
 * own the process: exit code and signal for the log, and the pid to kill the whole tree.
 */
class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer({ maxBufferSize: MAX_MESSAGE_BYTES });

  constructor(private readonly child: ChildProcess) {}

  async start(): Promise<void> {
    this.child.stdout!.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.buffer.readMessage();
        } catch (error) {
          this.onerror?.(error as Error);
          continue;
        }
        if (!message) break;
        this.onmessage?.(message);
      }
    });
    this.child.on('close', () => this.onclose?.());
    this.child.stdin!.on('error', error => this.onerror?.(error));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child.stdin!;
    if (stdin.destroyed || !stdin.writable) throw new NotSentError('the child process has exited');
    await new Promise<void>(resolve => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.child.stdin?.end();
  }
}

/** Spawns the child, connects an MCP client and waits for `initialize` to complete. */
export async function startChild(spec: ChildSpawnSpec, events: ChildEvents, startTimeoutMs = 30000): Promise<ChildConnection> {
  const stdio: 'pipe'[] = spec.privateInput === undefined ? ['pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe', 'pipe'];
  const child = spawn(spec.command, spec.args, { env: spec.env, cwd: spec.cwd, stdio, windowsHide: true });
  if (spec.privateInput !== undefined) {
    const privatePipe = child.stdio[3] as Writable | null;
    // A child that died at once closes the pipe: its exit is reported below, not this error.
    privatePipe?.on('error', () => undefined);
    privatePipe?.end(spec.privateInput);
  }
  let exited = false;
  let exitReason = 'the child process exited';
  const exitPromise = new Promise<void>(resolve => {
    child.on('exit', (code, signal) => {
      exited = true;
      exitReason = signal ? `the child process was killed by ${signal}` : `the child process exited with code ${code}`;
    });
    child.on('close', () => {
      exited = true;
      resolve();
    });
    child.on('error', error => {
      exited = true;
      exitReason = `the child process could not start: ${error.message}`;
      resolve();
    });
  });

  let stderrTail = '';
  let partial = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-2000);
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) events.onStderr(line);
  });

  const client = new Client({ name: 'playwright-bridge', version: '1' }, { capabilities: {} });
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => events.onToolsChanged());
  let disposed = false;
  // The tree as last seen, with start times. If the child dies first, its browser is re-parented
  // and no longer findable from the child's pid, so we remember it whenever a browser starts.
  let knownDescendants: KnownProcess[] = [];
  const rememberTree = () => {
    if (child.pid !== undefined && !exited) {
      try {
        const seen = new Set(knownDescendants.map(p => p.pid));
        knownDescendants = [...knownDescendants.filter(isSameProcess), ...identify(listDescendants(child.pid).filter(pid => !seen.has(pid)))];
      } catch {
        /* best effort */
      }
    }
  };
  /** Ours, still running: the child until it exits, and what was seen below it that is still the same process. */
  const leftovers = () => [...(exited || child.pid === undefined ? [] : [child.pid]), ...knownDescendants.filter(isSameProcess).map(p => p.pid)];
  listenToChildEvents(client, {
    browserState: params => {
      if (params.state === 'ready') rememberTree();
      events.onBrowserState(params);
    },
    observation: params => events.onObservation(params.event),
  });
  const control = controlClient(client, () => exited);
  const transport = new ProcessTransport(child);
  transport.onerror = () => undefined; // Exit is reported once, through onclose.

  const connection: ChildConnection = {
    get pid() {
      return child.pid;
    },
    get exited() {
      return exited;
    },
    facts: spec.facts,
    async listTools() {
      const tools: Tool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined);
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
      return tools;
    },
    async callTool(name, args, options) {
      if (exited) throw new NotSentError(exitReason);
      const _meta = options.session ? { [SESSION_META]: options.session.id, [CLIENT_NAME_META]: options.session.client } : undefined;
      return (await client.callTool({ name, arguments: args, ...(_meta ? { _meta } : {}) }, undefined, {
        signal: options.signal,
        timeout: options.timeoutMs,
        resetTimeoutOnProgress: true,
        onprogress: options.onProgress,
      })) as CallToolResult;
    },
    request: control.request,
    notify: control.notify,
    async dispose(graceMs = 2000) {
      if (disposed) return exitPromise;
      disposed = true;
      if (child.pid !== undefined && !exited) {
        rememberTree();
        // Ask first (the child closes its browser cleanly), then make sure.
        await transport.close().catch(() => undefined);
        await Promise.race([exitPromise, delay(graceMs)]);
      }
      // Once the child has exited its pid may belong to someone else: only a live child is killed by pid.
      if (leftovers().length) killTree(exited ? undefined : child.pid, knownDescendants);
      await Promise.race([exitPromise, delay(2000)]);
      // The browser holds its profile until its last process is gone: a restart must not start sooner.
      for (const deadline = Date.now() + 5000; leftovers().length && Date.now() < deadline;) await delay(50);
      await client.close().catch(() => undefined);
    },
  };

  child.on('exit', () => {
    // A child that died on its own may leave its browser behind; nothing we start outlives us.
    const orphans = knownDescendants.filter(isSameProcess);
    if (orphans.length) killTree(undefined, orphans);
    if (!disposed) {
      if (stderrTail.trim()) events.onStderr(`(exited; its last words were: ${lastLines(stderrTail, 3)})`);
      events.onExit(exitReason);
    }
  });

  try {
    const exitedFirst = exitPromise.then(() => {
      throw new Error(`${exitReason} before it was ready`);
    });
    const connected = Promise.race([client.connect(transport), exitedFirst]);
    await withDeadline(connected, startTimeoutMs, `the child did not answer initialize within ${startTimeoutMs} ms`);
  } catch (error) {
    await connection.dispose(0);
    const tail = stderrTail.trim() ? `\n${lastLines(stderrTail, 10)}` : '';
    throw new Error(`${(error as Error).message}${tail}`, { cause: error });
  }
  return connection;
}

function lastLines(text: string, count: number): string {
  return text.trim().split('\n').slice(-count).join('\n');
}

function delay(ms: number): Promise<void> {
  return new Promise(resolve => setTimeout(resolve, ms).unref?.());
}

/** A factory for children of one spawn spec: every restart uses the same settings. */
export function childFactoryFor(spec: ChildSpawnSpec): ChildFactory {
  return events => {
    if (spec.cwd) fs.mkdirSync(spec.cwd, { recursive: true });
    return startChild(spec, events);
  };
}
