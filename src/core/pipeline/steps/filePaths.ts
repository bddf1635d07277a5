/**
 * One rule for file names, readers and writers alike: a relative name means the output folder the child
 * writes into (upstream would use the workspace root), and a name that climbs out of it is refused. The
 * child gets absolute paths, the ones the confirmation showed.
 *
 * The output folder is shared by every context: under isolation `perClient` it holds the window's and the
 * other clients' snapshots, console logs and files. So an MCP client with a context of its own may not hand a
 * page (or its context) any file from there: an upload of `page-*.yml`, or of the folder itself, would carry
 * another context's pages to a site of the client's choosing.
 */
import * as fs from 'fs';
import * as path from 'path';
import { localFilesRead, namedPathsRead, resolveNamedFiles } from '../../tools/fileTools';
import { contextOfCall, WINDOW_CONTEXT } from '../../supervision/contextNotes';
import type { CallStep } from '../callContext';

/** The real path of a file or folder (symlinks followed), or of the nearest folder above it that exists. */
function realPathOf(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    const parent = path.dirname(file);
    return parent === file ? file : path.join(realPathOf(parent), path.basename(file));
  }
}

export const filePathsStep: CallStep = {
  name: 'filePaths',
  run(call) {
    const outputDir = call.connection?.facts?.outputDir;
    if (!outputDir) {
      // Never a name left for upstream to resolve against the workspace root.
      const namesFiles = typeof call.args?.filename === 'string' || namedPathsRead(call.name, call.args).length > 0;
      if (namesFiles) call.result.refuse(`${call.name} did not run: the browser server did not say where its output folder is. Restart the browser.`);
      return;
    }
    const resolved = resolveNamedFiles(call.name, call.args, outputDir);
    if ('error' in resolved) return call.result.refuse(resolved.error);
    call.args = resolved.args;
    if (contextOfCall(call) === WINDOW_CONTEXT) return;
    const shared = realPathOf(outputDir);
    const inShared = localFilesRead(call.name, call.args).filter(file => {
      const real = realPathOf(file);
      return real === shared || real.startsWith(shared + path.sep) || shared.startsWith(real + path.sep);
    });
    if (inShared.length) {
      call.result.refuse(
        `${call.name} did not run: ${inShared.map(file => path.basename(file)).join(', ')} ${inShared.length === 1 ? 'is' : 'are'} in the bridge's ` +
          'output folder, which every context writes into: under isolation "perClient" an MCP client may not give its page files from there ' +
          "(they may be another context's snapshots and logs). Give a file of your own from outside that folder.",
      );
    }
  },
};
