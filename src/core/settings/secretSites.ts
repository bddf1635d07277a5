/** A secret's sites as the person types them: origins, separated by commas, spaces or new lines. */
export interface ParsedSecretSites {
  origins: string[];
  /** Set when a part is not an origin; the whole answer is then refused (nothing half-saved). */
  problem?: string;
}

/**
 * Reads a list of sites into exact origins (`https://host[:port]`). A bare host name means https; a
 * full address keeps only its origin. Refused: wildcards (a secret goes to named sites only), and
 * anything without a host (about:, data:, file:).
 */
export function parseSecretSites(text: string): ParsedSecretSites {
  const origins: string[] = [];
  for (const part of text.split(/[\s,]+/).filter(Boolean)) {
    if (part.includes('*')) return { origins: [], problem: `"${part}": name each site; wildcards are not taken.` };
    const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(part) ? part : `https://${part}`;
    let origin: string;
    try {
      origin = new URL(withScheme).origin;
    } catch {
      return { origins: [], problem: `"${part}" is not a site like https://example.com.` };
    }
    if (origin === 'null' || !/^https?:/.test(origin)) return { origins: [], problem: `"${part}" is not an http(s) site like https://example.com.` };
    if (!origins.includes(origin)) origins.push(origin);
  }
  return { origins };
}
