/**
 * The size picker's "Playwright device…": Playwright's devices in a quick pick (size, pixel ratio, touch,
 * mobile), then, since a device's user agent and touch need a new context, the person's word before the
 * browser restarts as that device.
 */
import type * as vscodeTypes from 'vscode';
import type { Supervisor } from '../core/supervision/supervisor';

type VSCode = typeof vscodeTypes;

export interface DeviceChoice {
  readonly currentDevice: string | undefined;
  useDevice(device: string | undefined): Promise<void>;
}

/** What the panel needs of the bridge: the device for the size picker, each secret's sites for Copy as cURL. */
export interface PanelBridge extends DeviceChoice {
  secretSites(): Record<string, string[]>;
}

const DEFAULT_SIZE = '$(screen-full) Default size (the playwrightBridge.viewport setting)';

export async function pickDevice(vscode: VSCode, supervisor: Supervisor, choice: DeviceChoice): Promise<void> {
  let devices;
  try {
    ({ devices } = await supervisor.ask('deviceList', {}));
  } catch {
    void vscode.window.showInformationMessage('Playwright Bridge: start the browser first; its devices come from Playwright in it.');
    return;
  }
  const items = [
    ...(choice.currentDevice ? [{ label: DEFAULT_SIZE, device: undefined as string | undefined }] : []),
    ...devices.map(device => ({
      label: device.name,
      description: `${device.width}×${device.height}, ×${device.scale}${device.touch ? ', touch' : ''}${device.mobile ? ', mobile' : ''}`,
      device: device.name as string | undefined,
      picked: device.name === choice.currentDevice,
    })),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Emulate a Playwright device',
    placeHolder: 'Type to filter: iPhone, Pixel, iPad, Galaxy…',
    matchOnDescription: true,
  });
  if (!picked) return;
  const restart = 'Restart the browser';
  const what = picked.device
    ? `"${picked.device}" needs a new browser context for its user agent, touch and pixel ratio: the browser restarts as that device and its open pages close (a login profile or persistent profile keeps its logins). Chat is told at its next call.`
    : 'Going back to the default size restarts the browser in a plain context: its open pages close. Chat is told at its next call.';
  if ((await vscode.window.showWarningMessage(what, { modal: true }, restart)) !== restart) return;
  await choice.useDevice(picked.device);
}
