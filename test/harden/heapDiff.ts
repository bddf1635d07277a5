/**
 * What grew between two V8 heap snapshots of the same process: objects grouped by constructor
 * (closures by function name, strings and arrays by their kind), with count and self size in each,
 * largest growth first. Used with `HARDEN_SOAK_SNAPSHOTS` to find what a long session keeps:
 *   node out/test/harden/heapDiff.js before.heapsnapshot after.heapsnapshot [rows]
 */
import * as fs from 'fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

interface Group {
  count: number;
  bytes: number;
}

/** Count and self size per group of one snapshot. */
export function groupsOf(file: string): Map<string, Group> {
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as Snapshot;
  const fields = data.snapshot.meta.node_fields;
  const types = data.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map(field => fields.indexOf(field));
  const groups = new Map<string, Group>();
  for (let i = 0; i < data.nodes.length; i += fields.length) {
    const type = types[data.nodes[i + typeAt]];
    const name = data.strings[data.nodes[i + nameAt]];
    const key = type === 'object' || type === 'closure' ? `${type} ${name}` : type === 'native' ? `native ${name.slice(0, 60)}` : `(${type})`;
    const group = groups.get(key) ?? { count: 0, bytes: 0 };
    group.count++;
    group.bytes += data.nodes[i + sizeAt];
    groups.set(key, group);
  }
  return groups;
}

export function heapDiff(before: string, after: string): { key: string; count: number; bytes: number }[] {
  const [a, b] = [groupsOf(before), groupsOf(after)];
  const keys = new Set([...a.keys(), ...b.keys()]);
  return [...keys]
    .map(key => ({
      key,
      count: (b.get(key)?.count ?? 0) - (a.get(key)?.count ?? 0),
      bytes: (b.get(key)?.bytes ?? 0) - (a.get(key)?.bytes ?? 0),
    }))
    .sort((x, y) => y.bytes - x.bytes);
}

if (require.main === module) {
  const [before, after, rows] = process.argv.slice(2);
  if (!before || !after) {
    console.error('usage: node out/test/harden/heapDiff.js before.heapsnapshot after.heapsnapshot [rows]');
    process.exit(2);
  }
  const diff = heapDiff(before, after);
  const total = diff.reduce((sum, row) => sum + row.bytes, 0);
  console.log(`self size grew by ${(total / 1048576).toFixed(2)} MB`);
  for (const row of diff.slice(0, Number(rows ?? 25))) {
    console.log(`${(row.bytes / 1024).toFixed(0).padStart(9)} KB ${String(row.count).padStart(8)}  ${row.key}`);
  }
}
