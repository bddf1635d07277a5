/**
 * A secret goes only where the person allowed it: checked on the page upstream is about to type into. The page
 * is asked of upstream itself (its current tab), never guessed: a popup must not move the check.
 */
import type { ChildCallStep } from './childCall';

export const checkSecretSites: ChildCallStep = {
  name: 'checkSecretSites',
  async run(call, env) {
    const check = await env.sites.check(call.name, call.args, () => env.upstreamCurrentPage(call.session), call.session.routes.size > 0);
    if ('refused' in check) {
      env.log(`Refused ${call.name}: ${JSON.stringify(check.refused)}`);
      call.ended = { content: [] };
      call.marks.secretRefused = check.refused;
      return;
    }
    call.release = check.release;
  },
};
