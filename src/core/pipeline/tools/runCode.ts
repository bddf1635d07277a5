/**
 * browser_run_code_unsafe's rules, all here: it runs exactly the code the person approved, and never
 * beside other clients' contexts.
 */
import type { CallStep } from '../callContext';

const RUN_CODE = 'browser_run_code_unsafe';

/** Why an MCP client's browser_run_code_unsafe is refused under isolation `perClient`. */
export const RUN_CODE_REFUSED_FOR_CLIENTS = 'browser_run_code_unsafe is refused for MCP clients under isolation "perClient": its code runs ' +
  'in Node beside the whole browser and could reach every other client\'s context (cookies, pages), not only yours. Nothing ran. ' +
  'Use the other browser tools; the person can allow it for clients with the user setting playwrightBridge.allowRunCodeForClients.';

/**
 * Which code runs. Both `code` and `filename`: upstream would run the file and ignore the code a
 * confirmation showed. A file through the MCP door: a client's confirmation shows the arguments, not the
 * file, so it would approve code it never saw. A file through chat's tools: the text its confirmation
 * showed is sent as code, so a file changed meanwhile cannot slip in.
 */
export const runCodeSourceStep: CallStep = {
  name: 'runCodeSource',
  run(call) {
    if (call.name !== RUN_CODE || !call.args) return;
    const { code, filename, ...rest } = call.args;
    if (code !== undefined && filename !== undefined) {
      call.result.refuse('browser_run_code_unsafe was given both code and filename; give one of them. Nothing ran.');
      return;
    }
    if (typeof filename !== 'string') return;
    if (call.door === 'mcp') {
      call.result.refuse('Through the MCP server, browser_run_code_unsafe runs only code given as `code`, so the confirmation shows what runs. ' +
        'Pass the file\'s content as `code`.');
      return;
    }
    const taken = call.options.codeShown?.(filename);
    if (!taken) {
      // Only chat's tools show a file's text in their confirmation; any other way, it would run unseen.
      call.result.refuse('browser_run_code_unsafe runs a file only through chat\'s tools, whose confirmation shows it. Pass the code as `code`.');
      return;
    }
    if ('error' in taken) call.result.refuse(`The tool ${call.name} did not run: ${taken.error}`);
    else call.args = { ...rest, code: taken.code };
  },
};

/** Its code runs in Node beside the whole browser: page.context().browser().contexts() reaches every other client's context. */
export const runCodeForClientsStep: CallStep = {
  name: 'runCodeForClients',
  run(call) {
    if (call.name !== RUN_CODE || !call.options.session) return;
    const facts = call.connection?.facts;
    // Unknown isolation counts as perClient: refused unless allowed.
    if ((facts?.isolation ?? 'perClient') === 'perClient' && !facts?.allowRunCodeForClients) call.result.refuse(RUN_CODE_REFUSED_FOR_CLIENTS);
  },
};
