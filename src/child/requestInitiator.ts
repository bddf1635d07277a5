import type { Request } from 'playwright';
import { capText, ENTRY_LIMITS } from '../protocol/childMessages';

/**
 * What started a request, from what Playwright tells of it: a redirect, the person's or agent's own
 * navigation ("Other", as DevTools says for a typed address), or the document of the frame that asked for it.
 */
export function initiatorOf(request: Request): string {
  if (request.redirectedFrom()) return 'Redirect';
  if (request.isNavigationRequest() && !request.frame().parentFrame()) return 'Other';
  const frame = request.isNavigationRequest() ? request.frame().parentFrame() : request.frame();
  const url = frame?.url();
  return url ? capText(url, ENTRY_LIMITS.url) : 'Other';
}
