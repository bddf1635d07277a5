/**
 * The call goes to upstream, with the live stream paused as the tool's `capture` trait says, and no still taken
 * across a change of the page's size (its `resizesPage` trait). A browser lost during it (a dropped connection
 * comes back as upstream's "has been closed" error, sometimes just before the browser says it disconnected) ends
 * the call with that cause, not upstream's words.
 */
import { redactEndpoint } from '../../core/settings/browserConnection';
import { resultText } from '../../core/results/resultText';
import { toolRecord } from '../../core/tools/toolRegistry';
import { streamPauseMs } from '../tools/captureTools';
import type { ChildCall, ChildCallEnv, ChildCallStep } from './childCall';

export const forwardToUpstream: ChildCallStep = {
  name: 'forwardToUpstream',
  async run(call, env) {
    const { session } = call;
    const { observer } = session;
    try {
      const forward = observer ? () => observer.duringCall(call.forward, streamPauseMs(call.name)) : call.forward;
      // A resize (the agent's own, as the person's) with no still of the live view across it.
      call.result = observer && toolRecord(call.name)?.resizesPage ? await observer.changingSize(forward) : await forward();
    } catch (error) {
      if (!session.health.lostReason) throw error;
      lostDuring(call, env);
      return;
    } finally {
      await call.release?.();
    }
    const connected = session.browser?.browser;
    const connection = env.config.connection;
    if (!call.result.isError || !connected || !connection) return;
    if (/has been closed|Target closed/i.test(resultText(call.result))) {
      for (const deadline = Date.now() + 1000; connected.isConnected() && !session.health.lostReason && Date.now() < deadline;) {
        await new Promise(resolve => setTimeout(resolve, 20));
      }
    }
    if (!session.health.launchFailed && (!connected.isConnected() || session.health.lostReason)) {
      // This call tells of the loss: the next one is not told again.
      session.health.lost(`the connection to the browser was lost (${redactEndpoint(connection.endpoint)}).`, true);
      await env.dropSession(session);
      lostDuring(call, env);
    }
  },
};

/** The browser went away during the call: the call ends with that, for the host to word. */
function lostDuring(call: ChildCall, env: ChildCallEnv): void {
  call.marks.lostDuring = { reason: call.session.health.lostReason ?? 'it went away', reconnects: !!env.config.connection };
  call.ended = { content: [] };
}
