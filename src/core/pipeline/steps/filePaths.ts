/**
 * One rule for file names, readers and writers alike: a relative name means the output folder the child
 * writes into (upstream would use the workspace root), and a name that climbs out of it is refused. The
 * child gets absolute paths, the ones the confirmation showed.
 */
import { resolveNamedFiles } from '../../tools/fileTools';
import type { CallStep } from '../callContext';

export const filePathsStep: CallStep = {
  name: 'filePaths',
  run(call) {
    const outputDir = call.connection?.facts?.outputDir;
    if (!outputDir) return;
    const resolved = resolveNamedFiles(call.name, call.args, outputDir);
    if ('error' in resolved) call.result.refuse(resolved.error);
    else call.args = resolved.args;
  },
};
