/**
 * The rules of a tool that runs code in the bridge's own process from code or a file (its record's `runsCode`:
 * browser_run_code_unsafe), all here: it runs exactly the code the person approved, and never beside other
 * clients' contexts.
 */
import { toolRecord } from '../../tools/toolRegistry';
import type { CallStep } from '../callContext';

/** Why an MCP client's browser_run_code_unsafe is refused under isolation `perClient`. */
export const RUN_CODE_REFUSED_FOR_CLIENTS =
  'browser_run_code_unsafe is refused for MCP clients under isolation "perClient": its code runs ' +
  "in Node beside the whole browser and could reach every other client's context (cookies, pages), not only yours. Nothing ran. " +
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
    const runner = toolRecord(call.name)?.runsCode;
    if (!runner?.fileArgument || !call.args) return;
    const { [runner.argument]: code, [runner.fileArgument]: filename, ...rest } = call.args;
    if (code !== undefined && filename !== undefined) {
      call.result.refuse(`${call.name} was given both ${runner.argument} and ${runner.fileArgument}; give one of them. Nothing ran.`);
      return;
    }
    if (typeof filename !== 'string') return;
    if (call.door === 'mcp') {
      call.result.refuse(
        `Through the MCP server, ${call.name} runs only code given as \`${runner.argument}\`, so the confirmation shows what runs. ` +
          `Pass the file's content as \`${runner.argument}\`.`,
      );
      return;
    }
    const taken = call.options.codeShown?.(filename);
    if (!taken) {
      // Only chat's tools show a file's text in their confirmation; any other way, it would run unseen.
      call.result.refuse(`${call.name} runs a file only through chat's tools, whose confirmation shows it. Pass the code as \`${runner.argument}\`.`);
      return;
    }
    if ('error' in taken) call.result.refuse(`The tool ${call.name} did not run: ${taken.error}`);
    else call.args = { ...rest, [runner.argument]: taken.code };
  },
};

/** Its code runs in Node beside the whole browser: page.context().browser().contexts() reaches every other client's context. */
export const runCodeForClientsStep: CallStep = {
  name: 'runCodeForClients',
  run(call) {
    if (!toolRecord(call.name)?.runsCode?.inBridgeProcess || !call.options.session) return;
    const facts = call.connection?.facts;
    // Unknown isolation counts as perClient: refused unless allowed.
    if ((facts?.isolation ?? 'perClient') === 'perClient' && !facts?.allowRunCodeForClients) call.result.refuse(RUN_CODE_REFUSED_FOR_CLIENTS);
  },
};
