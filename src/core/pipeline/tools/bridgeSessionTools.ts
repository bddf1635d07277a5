/**
 * The bridge's session tools in words: the child answers bridge_session_list and bridge_session_close
 * with facts (protocol/callMarks.ts); this is where the model's sentences for them are written.
 */
import { BridgeToolAnswer, SessionCloseOutcome, SessionListing, SessionSummary } from '../../../protocol/callMarks';

/**
 * The session list as its caller may see it. Chat's tools (no caller id) act for the person and see every
 * session, client ids shortened to the 8 characters the panel shows. Under `perClient` an MCP client sees
 * only its own session and a count of the others: another's id would let it drive that session at the
 * endpoint (the id is the only thing that tells two clients of one window apart), and the window's tabs
 * are the person's.
 */
export function describeSessions(isolation: 'shared' | 'perClient', listing: SessionListing, callerId: string | undefined): string {
  const tabsOf = (s: SessionSummary) => (s.tabs.length ? s.tabs.map(t => `${t.title || '(no title)'} <${t.url}>`).join('; ') : 'no browser open yet');
  if (isolation === 'shared') {
    const windowLines = listing.sessions
      .filter(s => s.id === 'window')
      .map(s => `- window (chat's tools and every MCP client): ${tabsOf(s)}; idle ${s.idleSeconds} s`);
    return ['Isolation is "shared": every client and chat drive one browser context, listed as "window".', ...windowLines].join('\n');
  }
  const head = 'Isolation is "perClient": each MCP client has its own browser context; chat\'s tools use the window\'s.';
  if (callerId !== undefined) {
    const own = listing.sessions.find(s => s.id === callerId);
    const ownLine = own
      ? `- ${own.id} (client "${own.client ?? 'unnamed'}"), yours: ${tabsOf(own)}; idle ${own.idleSeconds} s`
      : `- ${callerId}, yours: no browser context yet (your first browser call opens one)`;
    const othersLine =
      `${listing.others} other session${listing.others === 1 ? '' : 's'} (the window's and other MCP clients'): ` +
      'an MCP client sees neither their ids nor their pages, and cannot reach them.';
    return [head, ownLine, othersLine].join('\n');
  }
  const lines = listing.sessions.map(s => {
    const who = s.id === 'window' ? "window (chat's tools)" : `${s.id.slice(0, 8)} (client "${s.client ?? 'unnamed'}")`;
    return `- ${who}${s.yours ? ', yours' : ''}: ${tabsOf(s)}; idle ${s.idleSeconds} s`;
  });
  return [head, ...lines].join('\n');
}

/** Why an MCP client may not close a session: the same words whether or not the id exists, so the answer reveals nothing. */
export const CLOSE_OTHERS_REFUSED =
  'Under isolation "perClient" an MCP client can close only its own session (the id bridge_session_list ' +
  'shows as yours). Other sessions belong to other clients or to the window and are not yours to close. Nothing was closed.';

/** What closing did, in words; `refused` when nothing was closed because it may not be or cannot be. */
function describeClose(close: SessionCloseOutcome): { text: string; refused: boolean } {
  switch (close.outcome) {
    case 'badId':
      return {
        refused: true,
        text:
          'Invalid arguments for tool "bridge_session_close": "id" must be a session id (a string) from bridge_session_list; ' +
          `got ${JSON.stringify(close.given)}.`,
      };
    case 'shared':
      return { refused: true, text: 'Isolation is "shared": there is one session for everyone. browser_close closes its browser.' };
    case 'notYours':
      return { refused: true, text: CLOSE_OTHERS_REFUSED };
    case 'ownNotOpen':
      return { refused: false, text: 'Your session has no browser context open: nothing to close.' };
    case 'ownClosed':
      return { refused: false, text: "Closed your session's browser context: its cookies and tabs are gone. Your next call starts a fresh one." };
    case 'window':
      return { refused: true, text: "The window's session is chat's; close its browser with browser_close, or the person restarts it." };
    case 'noMatch':
      return {
        refused: true,
        text: close.matches
          ? `"${close.given}" matches ${close.matches} sessions; give more of its id.`
          : `No session has the id "${close.given}" (give at least its first 8 characters). bridge_session_list shows them.`,
      };
    case 'closed':
      return {
        refused: false,
        text: `Closed session ${close.id.slice(0, 8)}: its browser context, cookies and tabs are gone. Its next call starts a fresh one.`,
      };
  }
}

/** A bridge tool's answer as the model reads it. */
export function bridgeToolText(answer: BridgeToolAnswer): { text: string; refused: boolean } {
  if (answer.answer === 'sessionList') return { text: describeSessions(answer.isolation, answer.listing, answer.caller), refused: false };
  return describeClose(answer.close);
}
