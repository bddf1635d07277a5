/**
 * The child's memory as the soak measures it: heap and RSS after a full garbage collection (without
 * it, heap figures swing with whatever garbage the last calls left), and a heap snapshot on request.
 * Started without --expose-gc (VS Code's extension host spawns it), the collector is reached the way
 * Node allows at run time.
 */
import * as v8 from 'v8';
import * as vm from 'vm';
import { MemoryResult } from '../protocol/childMessages';

let collect: (() => void) | undefined;

function fullCollection(): void {
  if (!collect) {
    v8.setFlagsFromString('--expose-gc');
    collect = vm.runInNewContext('gc') as () => void;
  }
  collect();
}

export function measureMemory(heapSnapshotPath?: string): MemoryResult {
  fullCollection();
  if (heapSnapshotPath) v8.writeHeapSnapshot(heapSnapshotPath);
  const usage = process.memoryUsage();
  return { heapUsedBytes: usage.heapUsed, rssBytes: usage.rss };
}
