/**
 * The names and `*` patterns of `tools.allow` and `tools.deny`: `*` stands for any run of characters,
 * and a pattern matches a tool's whole name. Read by the tool policy (which tool a pattern turns off)
 * and by the settings' levels (whether one level's allow list covers another's entry).
 */

function patternRegExp(pattern: string): RegExp {
  const escaped = pattern
    .split('*')
    .map(part => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${escaped}$`);
}

/** Does the name or pattern `pattern` match the tool `name`? */
export function toolPatternMatches(pattern: string, name: string): boolean {
  return pattern.includes('*') ? patternRegExp(pattern).test(name) : pattern === name;
}

/**
 * Does `outer` match every name `inner` matches? Matching `inner`'s text (its own `*` as a plain character)
 * is enough: each `*` of `inner` is then taken by a `*` of `outer`, which takes anything in its place.
 */
export function toolPatternCovers(outer: string, inner: string): boolean {
  return patternRegExp(outer).test(inner);
}
