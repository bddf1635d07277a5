/**
 * The Network pane's words, as Chrome DevTools writes them: a request's Name (its file) over its path, its Size
 * ("(memory cache)", transferred over resource size), its Initiator (the script's file and line), and the
 * summary footer under the list. Pure: the list (lists.ts) and the unit tests call them.
 */
import type { MarkerRow, NetworkRow } from '../protocol/panelMessages';
import { isMarker } from '../protocol/panelRows';

/** Bytes as the list writes them (never negative: a size below 0 is no size). */
export const bytes = (n?: number) =>
  n === undefined || n < 0 ? '' : n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`;

/**
 * The Name column's two lines: the last segment of the path (with the query, as DevTools shows it), or the host
 * for "/"; beneath it the host and the path leading to it. An address that is not a URL is its own name.
 */
export function nameAndPath(address: string): { name: string; path: string } {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return { name: address, path: '' };
  }
  if (url.protocol === 'data:' || url.protocol === 'blob:') return { name: address.slice(0, 60), path: url.protocol.slice(0, -1) };
  const segments = url.pathname.split('/');
  const file = segments.pop() ?? '';
  const folder = segments.join('/');
  if (!file) return { name: `${url.host || address}${url.search}`, path: `${url.host}${url.pathname}` };
  return { name: `${file}${url.search}`, path: `${url.host}${folder || '/'}` };
}

/** The Size column's two lines, as DevTools' big rows: what came over the wire (or which cache), and the resource's own size. */
export function sizeWords(row: NetworkRow): { transferred: string; resource: string; title: string } {
  if (row.failure) return { transferred: '0 B', resource: '', title: 'Failed: nothing transferred' };
  const resource = bytes(row.resourceBytes ?? row.sizeBytes);
  if (row.cache) {
    const cache = `(${row.cache} cache)`;
    return { transferred: cache, resource, title: `Served from ${row.cache} cache${resource ? `, resource size: ${resource}` : ''}` };
  }
  const transferredBytes = row.transferBytes ?? row.sizeBytes;
  if (transferredBytes === undefined || transferredBytes < 0) {
    return row.status === 0 ? { transferred: '', resource: '', title: 'Pending' } : { transferred: 'unknown', resource: '', title: 'The browser gave no size' };
  }
  const transferred = bytes(transferredBytes);
  return { transferred, resource, title: `${transferred} transferred over network${resource ? `, resource size: ${resource}` : ''}` };
}

/** "app.js:12:5" from a script's whole address and position, as DevTools' column shows it (the whole in its tooltip). */
export function shortInitiator(initiator: string | undefined): string {
  if (!initiator) return '';
  const match = /^(.*?\/\/[^/]*\/[^:]*|.*?)((?::\d+){1,2})?$/.exec(initiator)!;
  try {
    const url = new URL(match[1]);
    const name = url.pathname.split('/').filter(Boolean).at(-1) ?? url.host;
    return `${name || url.host}${match[2] ?? ''}`;
  } catch {
    return initiator;
  }
}

/** The requests counted by the footer: those listed (and shown by the filters). */
export interface NetworkSummary {
  requests: number;
  transferredBytes: number;
  resourceBytes: number;
  domContentLoadedMs?: number;
  loadMs?: number;
}

/** The footer's sums over the rows listed, and the last page's DOMContentLoaded and load (from its navigation's row). */
export function summarize(rows: readonly (NetworkRow | MarkerRow)[]): NetworkSummary {
  const summary: NetworkSummary = { requests: 0, transferredBytes: 0, resourceBytes: 0 };
  for (const row of rows) {
    if (isMarker(row)) continue;
    summary.requests++;
    if (!row.cache) summary.transferredBytes += Math.max(0, row.transferBytes ?? row.sizeBytes ?? 0);
    summary.resourceBytes += Math.max(0, row.resourceBytes ?? row.sizeBytes ?? 0);
    if (row.navigation) {
      summary.domContentLoadedMs = row.domContentLoadedMs;
      summary.loadMs = row.loadMs;
    }
  }
  return summary;
}

/** "3 requests | 1.2 KB transferred | 4.5 KB resources | DOMContentLoaded: 120 ms | Load: 200 ms", as DevTools' status bar. */
export function footerText(summary: NetworkSummary): string {
  const parts = [
    `${summary.requests} ${summary.requests === 1 ? 'request' : 'requests'}`,
    `${bytes(summary.transferredBytes)} transferred`,
    `${bytes(summary.resourceBytes)} resources`,
  ];
  if (summary.domContentLoadedMs !== undefined) parts.push(`DOMContentLoaded: ${Math.round(summary.domContentLoadedMs)} ms`);
  if (summary.loadMs !== undefined) parts.push(`Load: ${Math.round(summary.loadMs)} ms`);
  return parts.join(' | ');
}

/** Case-insensitive order of header names, as DevTools lists them (stable for equal names). */
export function sortedHeaders<H extends { name: string }>(headers: readonly H[]): H[] {
  return [...headers].sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
}
