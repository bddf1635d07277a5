/**
 * Another process's audience: which of the person's secrets a program the bridge starts (an exported test's
 * run) may read from its environment. A secret goes only to a run whose every origin (the pages, the frames
 * in them and the addresses it goes to: core/testExport/exportSteps.ts visitedOrigins) is one of that
 * secret's sites, and never to one that goes nowhere known. Everything else is withheld, by name.
 */
import type { SecretEntry } from '../../protocol/childMessages';

export function grantSecrets(
  names: readonly string[],
  origins: readonly string[],
  secrets: Readonly<Record<string, SecretEntry>>,
): { env: Record<string, string>; withheld: string[] } {
  const env: Record<string, string> = {};
  const withheld: string[] = [];
  for (const name of names) {
    const entry = secrets[name];
    if (entry && origins.length && origins.every(origin => entry.origins.includes(origin))) env[name] = entry.value;
    else withheld.push(name);
  }
  return { env, withheld };
}
