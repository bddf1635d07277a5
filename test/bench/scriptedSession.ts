/**
 * The scripted session the per-call figures time, step by step, through each door and through bare upstream:
 * navigate, snapshot, type, click, console, network, a screenshot, another page and back, three times over.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { refOf, textOf } from '../support/realBridge';

/** One step of the session; `args` may depend on what the door's previous snapshot said. */
export interface Step {
  name: string;
  args: (state: Map<string, string>) => Record<string, unknown>;
  after?: (result: CallToolResult, state: Map<string, string>) => void;
}

export function session(base: string): Step[] {
  const remember = (result: CallToolResult, state: Map<string, string>) => {
    state.set('input', refOf(textOf(result), /textbox "Your name"/));
    state.set('button', refOf(textOf(result), /button "Greet"/));
  };
  const loop: Step[] = [
    { name: 'browser_navigate', args: () => ({ url: `${base}/` }) },
    { name: 'browser_snapshot', args: () => ({}), after: remember },
    { name: 'browser_type', args: s => ({ element: 'Your name', target: s.get('input'), text: 'Ada' }) },
    { name: 'browser_click', args: s => ({ element: 'Greet', target: s.get('button') }) },
    { name: 'browser_snapshot', args: () => ({}) },
    { name: 'browser_console_messages', args: () => ({ level: 'info' }) },
    { name: 'browser_network_requests', args: () => ({}) },
    { name: 'browser_take_screenshot', args: () => ({}) },
    { name: 'browser_navigate', args: () => ({ url: `${base}/second` }) },
    { name: 'browser_navigate_back', args: () => ({}) },
  ];
  return [...loop, ...loop, ...loop];
}
