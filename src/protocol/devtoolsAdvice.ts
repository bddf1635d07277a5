/**
 * What to change for a DevTools finding, in one home for every reader: the model's answer
 * (core/pipeline/tools/devtoolsWords.ts) and the panel's cards (webview/devtoolsCards.ts) say the same.
 * Zod-free: the webview imports it.
 */

/** What to change for each insight DevTools names (its own advice, said as a step). */
const INSIGHT_ADVICE: Record<string, string> = {
  RenderBlocking:
    'Defer or inline these requests (async/defer scripts, inline critical CSS, media queries on other stylesheets) so the first paint does not wait for them.',
  LCPDiscovery:
    'Make the LCP image discoverable in the HTML (an <img> with src, or <link rel="preload">), give it fetchpriority="high", and never loading="lazy".',
  LCPBreakdown:
    "Work on the largest phase: a slow first byte is the server, a load delay is late discovery, load duration is the file's size, render delay is blocking CSS or script.",
  DocumentLatency: "Answer the document faster: avoid redirects, cache or speed up the server's response (under 600 ms), compress the HTML.",
  ForcedReflow:
    'Do not read layout (offsetWidth, getBoundingClientRect…) right after changing the DOM or styles in the same task: batch the reads before the writes.',
  ThirdParties: 'Load third-party code later, or less of it (facades, async, only where needed).',
  CLSCulprits:
    'Give images, iframes and ads a size (width/height or aspect-ratio), reserve space for late content, and use font-display: optional or size-adjusted fallbacks.',
  INPBreakdown:
    "Shorten the handler's work: yield to the main thread (await scheduler.yield(), setTimeout), move heavy work off it, and update the screen first.",
  NetworkDependencyTree: 'Shorten the chain of critical requests: preload or preconnect what is found late, and load less before the first paint.',
  Cache: 'Serve static files with a long cache lifetime (Cache-Control: max-age) and versioned names.',
  ImageDelivery: 'Serve images at the size shown, in a modern format (WebP, AVIF), compressed.',
  FontDisplay: 'Use font-display: swap or optional so text shows while the font loads.',
  DOMSize: 'Keep the DOM smaller: fewer elements, shallower trees; render long lists lazily.',
  Viewport: 'Add <meta name="viewport" content="width=device-width, initial-scale=1"> so taps are not delayed on mobile.',
  CharacterSet: 'Declare the encoding: <meta charset="utf-8"> in the first 1024 bytes, or charset in the Content-Type header.',
  ModernHTTP: 'Serve over HTTP/2 or HTTP/3.',
  SlowCSSSelector: 'Simplify the costly selectors DevTools names.',
  DuplicatedJavaScript: 'Bundle shared modules once.',
  LegacyJavaScript: 'Ship modern JavaScript to modern browsers (no polyfills they do not need).',
};

/** What to change for the insight of this name (DevTools' engine name), if we know. */
export function insightAdvice(name: string): string | undefined {
  return Object.hasOwn(INSIGHT_ADVICE, name) ? INSIGHT_ADVICE[name] : undefined;
}

/** What an insight may save, as the trace engine estimates it ("may save 300 ms, 12 KB"), or ''. */
export function insightSavings(insight: { savingsMs?: number; savingsBytes?: number }): string {
  return [insight.savingsMs ? `may save ${insight.savingsMs} ms` : '', insight.savingsBytes ? `${Math.round(insight.savingsBytes / 1024)} KB` : '']
    .filter(Boolean)
    .join(', ');
}

/** axe's fix for an element without its preamble ("Fix any of the following:"), on one line. */
export function auditFixWords(fix: string): string {
  return fix
    .replace(/\s+/g, ' ')
    .replace(/^Fix (any|all) of the following: ?/, '')
    .trim();
}

/** A documentation link a card may open (the finding's own rule or insight page): https, no credentials, a plain host. */
export function isDocsLink(url: string | undefined): url is string {
  if (!url || url.length > 2048 || !url.startsWith('https://')) return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' && !parsed.username && !parsed.password && /^[a-z0-9.-]+$/.test(parsed.hostname);
  } catch {
    return false;
  }
}
