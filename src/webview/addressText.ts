/**
 * What the person typed in the address bar, read as a browser reads it: an address gets a scheme if it has
 * none (http for this machine's own hosts, https for others); text that is not an address goes nowhere (a
 * browser would search for it; the bridge has no search to send it to, and its browser may be offline).
 */

export type ReadAddress = { url: string } | { notAnAddress: string };

/** Hosts of this machine: served over plain http as a rule. */
const LOCAL_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)(:\d+)?(\/|$)/i;
/** A host with a port ("devbox:8080") or a dotted name ("example.com", "10.0.0.2"), then an optional path. */
const HOST_LIKE = /^(?:[a-z\d](?:[a-z\d-]*[a-z\d])?)(?:\.[a-z\d](?:[a-z\d-]*[a-z\d])?)*(?::\d{1,5})?(?:[/?#]\S*)?$/i;

/** Undefined for an empty box; else the URL to open, or why this is not an address (said in place). */
export function readAddress(text: string): ReadAddress | undefined {
  const typed = text.trim();
  if (!typed) return undefined;
  const notAnAddress = {
    notAnAddress: `"${typed.length > 60 ? `${typed.slice(0, 57)}…` : typed}" is not an address. Type one like example.com or localhost:3000 (there is no search here).`,
  };
  // A scheme is followed by // (or is about:, data:, file:, view-source:); "localhost:3000" is a host and port.
  if (/^[a-z][\w+.-]*:\/\//i.test(typed) || /^(about|data|file|view-source):/i.test(typed)) {
    try {
      return { url: new URL(typed).href === typed ? typed : new URL(typed).href };
    } catch {
      return notAnAddress;
    }
  }
  if (/\s/.test(typed)) return notAnAddress;
  if (LOCAL_HOST.test(typed)) return { url: `http://${typed}` };
  // One word without a dot or a port ("hello") is not a host a person means; "intranet:8080" is.
  if (!HOST_LIKE.test(typed) || (!typed.split(/[/?#]/)[0].includes('.') && !/:\d+/.test(typed))) return notAnAddress;
  return { url: `https://${typed}` };
}
