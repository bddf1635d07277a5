/**
 * The Network pane's controls, as DevTools' Network panel has them: Clear, Preserve log, Disable cache,
 * throttling, Save all as HAR, and column headers that sort the list (Name resizable by its grip).
 * Clear and Preserve log are the host's list's own; throttling and the cache are applied in the browser
 * (child/emulationControl.ts), and the header says so while they are on.
 */
import type { MarkerRow, NetworkRow, PanelState } from '../protocol/panelMessages';
import type { Emulation, Throttling } from '../protocol/devtoolsFacts';
import { $, post } from './dom';
import type { VirtualRows } from './virtualRows';

type SortKey = 'url' | 'method' | 'status' | 'type' | 'initiator' | 'size' | 'duration' | 'time';

const THROTTLING_WORDS: Record<Throttling, string> = { none: '', offline: 'Offline', slow4g: 'Slow 4G', fast4g: 'Fast 4G', custom: 'Custom network' };

/** A failed request sorts after every status, a pending one before: as DevTools orders its Status column. */
const statusOf = (row: NetworkRow) => (row.failure ? 1000 : row.status);
const KEYS: Record<SortKey, (row: NetworkRow) => string | number> = {
  url: row => row.url,
  method: row => row.method,
  status: statusOf,
  type: row => row.resourceType,
  initiator: row => row.initiator ?? '',
  size: row => row.sizeBytes ?? -1,
  duration: row => row.durationMs ?? Infinity,
  time: row => row.time,
};

let conditions: Emulation = { throttling: 'none', cacheDisabled: false };

export function startNetworkControls(list: VirtualRows<NetworkRow | MarkerRow>): void {
  $('network-clear').addEventListener('click', () => post({ type: 'networkControl', control: { action: 'clear' } }));
  $('network-har').addEventListener('click', () => post({ type: 'command', command: 'saveHar' }));
  $<HTMLInputElement>('preserve-log').addEventListener('change', event => {
    post({ type: 'networkControl', control: { action: 'preserveLog', on: (event.target as HTMLInputElement).checked } });
  });
  const sendConditions = (next: Emulation) => post({ type: 'networkControl', control: { action: 'conditions', conditions: next } });
  $<HTMLInputElement>('disable-cache').addEventListener('change', event =>
    sendConditions({ ...conditions, cacheDisabled: (event.target as HTMLInputElement).checked }),
  );
  $<HTMLSelectElement>('throttling').addEventListener('change', event =>
    sendConditions({ ...conditions, throttling: (event.target as HTMLSelectElement).value as Throttling }),
  );

  // A header click sorts by it, a second click reverses, a third goes back to the order the requests came in.
  let sorted: { key: SortKey; descending: boolean } | undefined;
  const headers = [...document.querySelectorAll<HTMLButtonElement>('#network-columns .column')];
  for (const header of headers) {
    header.addEventListener('click', event => {
      if ((event.target as HTMLElement).classList.contains('grip')) return;
      const key = header.dataset.sort as SortKey;
      sorted = sorted?.key !== key ? { key, descending: false } : !sorted.descending ? { key, descending: true } : undefined;
      for (const other of headers) {
        if (other === header && sorted) other.setAttribute('aria-sort', sorted.descending ? 'descending' : 'ascending');
        else other.removeAttribute('aria-sort');
      }
      const value = sorted && KEYS[sorted.key];
      const sign = sorted?.descending ? -1 : 1;
      list.sortBy(
        value
          ? (a, b) => {
              const [x, y] = [value(a as NetworkRow), value(b as NetworkRow)];
              return sign * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y)));
            }
          : undefined,
      );
    });
  }

  // The Name column's grip: dragged, it sets that column's width for the header and every row.
  const pane = $('pane-network');
  const grip = $('name-grip');
  grip.addEventListener('pointerdown', event => {
    event.preventDefault();
    grip.setPointerCapture(event.pointerId);
    const start = event.clientX;
    const width = grip.parentElement!.getBoundingClientRect().width;
    const move = (moved: PointerEvent) => pane.style.setProperty('--name-col', `${Math.max(80, Math.round(width + moved.clientX - start))}px`);
    const up = () => {
      grip.removeEventListener('pointermove', move);
      grip.removeEventListener('pointerup', up);
    };
    grip.addEventListener('pointermove', move);
    grip.addEventListener('pointerup', up);
  });
}

/** Everything the browser emulates, the agent's bridge_emulate included, in the header's words (empty: nothing). */
export function emulationNote(emulation: Emulation): string {
  return [
    THROTTLING_WORDS[emulation.throttling],
    emulation.cacheDisabled ? 'Cache off' : '',
    (emulation.cpuSlowdown ?? 1) > 1 ? `CPU ${emulation.cpuSlowdown}× slower` : '',
    emulation.colorScheme
      ? `${emulation.colorScheme === 'no-preference' ? 'No colour preference' : emulation.colorScheme === 'dark' ? 'Dark' : 'Light'} scheme`
      : '',
    emulation.reducedMotion === 'reduce' ? 'Reduced motion' : emulation.reducedMotion ? 'Motion allowed' : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The controls and the header's note as the browser applies them now. */
export function showNetworkState(network: PanelState['network']): void {
  const { preserveLog: _preserveLog, ...emulation } = network;
  conditions = emulation;
  $<HTMLInputElement>('preserve-log').checked = network.preserveLog;
  $<HTMLInputElement>('disable-cache').checked = network.cacheDisabled;
  $<HTMLSelectElement>('throttling').value = network.throttling;
  const note = emulationNote(emulation);
  const badge = $('network-note');
  badge.textContent = note;
  // In a narrow header the note is a mark (panel.css): its words stay in the tooltip and for screen readers.
  badge.title = `${note}: the Network pane's throttling or Disable cache is on for this browser`;
  badge.hidden = !note;
}
