/**
 * Every id that package.json contributes and the code refers to: the settings section and keys,
 * commands, views, the webview panel type, the status bar item, the MCP provider. Written once
 * here; a test checks them against package.json, so a renamed command cannot silently stop working.
 */

export const SETTINGS_SECTION = 'playwrightBridge';

/** Every setting below the section that the bridge reads: declared in settings/settingsTable.ts. */
export { SETTING_KEYS } from './settings/settingsTable';

export const COMMANDS = {
  restartBrowser: 'playwrightBridge.restartBrowser',
  showLog: 'playwrightBridge.showLog',
  installBrowser: 'playwrightBridge.installBrowser',
  copyMcpClientConfig: 'playwrightBridge.copyMcpClientConfig',
  openPanel: 'playwrightBridge.openPanel',
  openPanelInEditor: 'playwrightBridge.openPanelInEditor',
  startBrowser: 'playwrightBridge.startBrowser',
  saveScreenshot: 'playwrightBridge.saveScreenshot',
  takeControl: 'playwrightBridge.takeControl',
  handBack: 'playwrightBridge.handBack',
  setSecret: 'playwrightBridge.setSecret',
  chooseSecretSites: 'playwrightBridge.chooseSecretSites',
  deleteSecret: 'playwrightBridge.deleteSecret',
  saveLoginProfile: 'playwrightBridge.saveLoginProfile',
  listLoginProfiles: 'playwrightBridge.listLoginProfiles',
  deleteLoginProfile: 'playwrightBridge.deleteLoginProfile',
  setConnectionCredentials: 'playwrightBridge.setConnectionCredentials',
  exportTest: 'playwrightBridge.exportTest',
  saveTrace: 'playwrightBridge.saveTrace',
  saveNetworkHar: 'playwrightBridge.saveNetworkHar',
  openDevTools: 'playwrightBridge.openDevTools',
  shareCdp: 'playwrightBridge.shareCdp',
  debugBrowser: 'playwrightBridge.debugBrowser',
  revokeCdp: 'playwrightBridge.revokeCdp',
} as const;

export const VIEW_CONTAINER_ID = 'playwrightBridge';
export const PANEL_VIEW_ID = 'playwrightBridge.browserView';
export const PANEL_WEBVIEW_TYPE = 'playwrightBridge.browserPanel';
export const STATUS_BAR_ID = 'playwrightBridge.status';
export const MCP_PROVIDER_ID = 'playwrightBridge.mcp';
