/**
 * What only the child could decide, in words: a secret it would not type, a browser that went away
 * during the call, an address the person's origin rules blocked, and the bridge's own tools' answers (its
 * session tools, its DevTools tools and a trace of this call).
 */
import { ORIGIN_RULES_NOTE } from '../../../protocol/callMarks';
import type { CallStep } from '../callContext';
import { bridgeToolText } from '../tools/bridgeSessionTools';
import { devtoolsText, traceText } from '../tools/devtoolsWords';
import { secretRefusalText } from './secretSiteWords';

export const childMarksStep: CallStep = {
  name: 'childMarks',
  run(call) {
    const marks = call.marks;
    if (!marks) return;
    if (marks.secretRefused) call.result.refuse(secretRefusalText(marks.secretRefused));
    if (marks.lostDuring) {
      const next = marks.lostDuring.reconnects ? 'The next call connects again' : 'The next call starts a fresh browser';
      call.result.refuse(`The browser went away during ${call.name}: ${marks.lostDuring.reason} ${next}; earlier pages and state are gone.`);
    }
    // Chromium's own words do not say who blocked it: the person did, on purpose.
    if (marks.pausedInDebugger) {
      const seconds = Math.round(marks.pausedInDebugger.ms / 100) / 10;
      call.result.noteAfter(
        `The page was paused in the debugger for ${seconds} s while this call ran (a breakpoint the person set in VS Code's debugger or DevTools), ` +
          `so the call waited for it.${marks.pausedInDebugger.stillPaused ? ' It is still paused: the page runs no script until the person resumes it.' : ''}`,
      );
    }
    if (marks.originBlocked) call.result.noteAfter(`The address is ${ORIGIN_RULES_NOTE}, set by the person. Do not try to reach it another way.`);
    if (marks.devtools) {
      const answer = devtoolsText(marks.devtools, call.name);
      if (answer.refused) call.result.refuse(answer.text);
      else call.result.respond(answer.text);
    }
    // The agent's next call after a "nextCall" trace: its own answer first, then what the trace measured of it.
    if (marks.traceOfCall) call.result.noteAfter(traceText(marks.traceOfCall));
    if (marks.bridgeTool) {
      const answer = bridgeToolText(marks.bridgeTool);
      if (answer.refused) call.result.refuse(answer.text);
      else call.result.respond(answer.text);
    }
  },
};
