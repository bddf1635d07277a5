/**
 * The browser panel's webview: live frames of the page chat drives, its tabs, console, network
 * and tool activity. Talks to the extension only through the messages in protocol/panelMessages.
 * The parts: header.ts (one-row toolbar, tabs; overflowMenu.ts, sizePicker.ts), frameView.ts (the picture and the person's
 * input on it), lists.ts (console, network, activity; consoleList.ts the Console's rows and controls), requestDetail.ts (a request's headers and bodies), activityExport.ts (selection, Export as test), timeTravel.ts (a past step shown as it was); this file starts them and routes the messages.
 */
import type { HostToPanel } from '../protocol/panelMessages';
import { post } from './dom';
import { drawFrame, startFrameView } from './frameView';
import { renderState, startHeader } from './header';
import { clearExportStatus, clearSelection, showExportStatus, startActivityExport } from './activityExport';
import { showStep, startTimeTravel } from './timeTravel';
import { startLists } from './lists';
import { showConsoleState } from './consoleList';
import { closeRequest, showRequestDetail } from './requestDetail';
import { answerDescribe, countRequests } from './testHook';

/** Set by the build: true only in the test bundle (dist/webview/panel-test.js), never in the VSIX's panel.js. */
declare const PANEL_TEST_HOOKS: boolean;

const { consoleList, networkList, activityList } = startLists();
startHeader();
startFrameView();
startActivityExport();
startTimeTravel();

window.addEventListener('message', event => {
  const message = event.data as HostToPanel;
  switch (message.type) {
    case 'snapshot':
      // Another session or a new browser: its requests are others, so an open request's pane closes, and the last
      // export's line goes (its marks named the old activity rows; a panel opening now is sent it again after this).
      closeRequest();
      clearExportStatus();
      renderState(message.state);
      showConsoleState(message.state.console);
      consoleList.reset(message.console);
      networkList.reset(message.network);
      activityList.reset(message.activity);
      return;
    case 'state':
      showConsoleState(message.state.console);
      return renderState(message.state);
    case 'console':
      return consoleList.upsert(message.rows, message.dropBefore);
    case 'network':
      if (PANEL_TEST_HOOKS) countRequests(message.rows);
      return networkList.upsert(message.rows, message.dropBefore);
    case 'activity':
      return activityList.upsert(message.rows, message.dropBefore);
    case 'frame':
      return void drawFrame(message);
    case 'exportStatus':
      return showExportStatus(message.status);
    case 'requestDetail':
      return showRequestDetail(message);
    case 'stepView':
      if (!message.view) clearSelection();
      return showStep(message.view, message.problem);
    // What the tests read of the panel: answered only by the test bundle (the branch is dropped from panel.js).
    case 'describe':
      if (PANEL_TEST_HOOKS) {
        // What is about to be drawn counts: rows wait for the next frame, which a test's DOM may never paint.
        for (const list of [consoleList, networkList, activityList]) list.flush();
        answerDescribe(message.id);
      }
  }
});

post({ type: 'ready' });
