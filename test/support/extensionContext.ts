/** The extension context VS Code would hand activate(), for the whole extension started against the fake `vscode`. */
import * as fs from 'fs';
import * as path from 'path';
import type * as vscodeTypes from 'vscode';
import { Uri } from './fakeVscode';
import { REPO_ROOT } from './realBridge';

const packageJson = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));

/** This checkout as the extension, with fresh storage under `storage` and empty secrets and state. */
export function contextFor(storage: string): vscodeTypes.ExtensionContext {
  const secrets = new Map<string, string>();
  const state = new Map<string, unknown>();
  return {
    subscriptions: [],
    extension: { packageJSON: packageJson },
    extensionUri: Uri.file(REPO_ROOT),
    extensionPath: REPO_ROOT,
    asAbsolutePath: (relative: string) => path.join(REPO_ROOT, relative),
    storageUri: Uri.file(path.join(storage, 'workspace')),
    globalStorageUri: Uri.file(path.join(storage, 'global')),
    secrets: {
      get: async (key: string) => secrets.get(key),
      store: async (key: string, value: string) => void secrets.set(key, value),
      delete: async (key: string) => void secrets.delete(key),
    },
    globalState: {
      get: (key: string) => state.get(key),
      update: async (key: string, value: unknown) => void state.set(key, value),
      keys: () => [...state.keys()],
    },
    workspaceState: {
      get: (key: string) => state.get(`workspace:${key}`),
      update: async (key: string, value: unknown) => void state.set(`workspace:${key}`, value),
      keys: () => [],
    },
  } as unknown as vscodeTypes.ExtensionContext;
}
