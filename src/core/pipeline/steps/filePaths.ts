/**
 * One rule for file names, readers and writers alike: a relative name means the output folder the child
 * writes into (upstream would use the workspace root), and a name that climbs out of it is refused. The
 * child gets absolute paths, the ones the confirmation showed.
 */
import { namedPathsRead, resolveNamedFiles } from '../../tools/fileTools';
import type { CallStep } from '../callContext';

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
    if ('error' in resolved) call.result.refuse(resolved.error);
    else call.args = resolved.args;
  },
};
