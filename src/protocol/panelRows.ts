/**
 * The one helper both sides of the panel protocol run: telling a restart marker from an entry.
 * Kept apart from the schemas so the webview bundle does not carry zod.
 */
import type { MarkerRow } from './panelMessages';

export function isMarker(row: object): row is MarkerRow {
  return 'marker' in row;
}
