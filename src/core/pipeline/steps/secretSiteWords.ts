/**
 * The words for a secret the child did not type: the child checks the page and its frames (only it
 * sees them) and says why as facts (protocol/callMarks.ts); the model reads these sentences.
 */
import type { SecretRefusal } from '../../../protocol/callMarks';

export function secretRefusalText(refusal: SecretRefusal): string {
  if (refusal.why === 'clipboardChord') {
    return (
      `Refused to press ${refusal.key}: while secrets are set the agent may not copy, cut or paste, which could carry a typed secret ` +
      'to another site. Nothing was pressed. Type the text instead.'
    );
  }
  return (
    `Refused to type the secret ${refusal.secret}: ${whyNot(refusal)} Nothing was typed. Only the person can add a site to a secret ` +
    '(command "Playwright Bridge: Choose Sites for Secret…"); do not try to type it anywhere else.'
  );
}

function whyNot(refusal: Exclude<SecretRefusal, { why: 'clipboardChord' }>): string {
  switch (refusal.why) {
    case 'routed':
      return (
        'the agent has routed requests in this browser (browser_route), so a page may not come from the site it names. ' +
        'Remove the routes (browser_unroute) first.'
      );
    case 'noSites':
      return 'the person has not chosen any site for it yet.';
    case 'notARef':
      return 'give the field as its ref from the page snapshot (like e12), not a selector.';
    case 'noPage':
      return 'no page is open.';
    // Cut here, after the child masked the whole address: a cut before masking could leave part of a secret.
    case 'pageOrigin':
      return `it may be typed only on ${refusal.sites.join(', ')}, and this page is ${refusal.page.slice(0, 200)}.`;
    case 'fieldNotFound':
      return `the field "${refusal.target}" was not found on the page (take a new snapshot and use its ref).`;
    case 'frameOrigin':
      return `it may be typed only on ${refusal.sites.join(', ')}, and the field is inside a frame of ${refusal.frame ?? 'no origin (about:blank or data:)'}.`;
  }
}
