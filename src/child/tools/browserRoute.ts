/**
 * browser_route and browser_unroute: the child keeps the agent's routes as upstream does, because a routed
 * page may claim any origin, so no secret is typed while one is set (secretSites.ts).
 */
/** Keeps the agent's routes as upstream does: browser_route adds one, browser_unroute removes one, or all without a pattern. */
export function noteRoutes(routes: Set<string>, tool: string, args: Record<string, unknown> | undefined): void {
  const pattern = typeof args?.pattern === 'string' ? args.pattern : undefined;
  if (tool === 'browser_route') routes.add(pattern ?? '');
  else if (tool === 'browser_unroute') {
    if (pattern === undefined) routes.clear();
    else routes.delete(pattern);
  }
}
