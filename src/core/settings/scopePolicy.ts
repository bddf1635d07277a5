/**
 * The rules of who may set a setting, which each row of the settings table (settingsTable.ts, its
 * `workspace`) picks one of. Decided as a person who clones a stranger's repository would want: a workspace
 * (its `.vscode/settings.json`, or a folder's) never turns on a tool group or a door, never raises a budget,
 * never chooses a program, its arguments, where files go or whose logins the browser has. It may turn such
 * things off, and it may set what only shapes how the browser looks (its size, a headed window, how much a
 * snapshot says).
 *
 * The reader (settings.ts) reads every level of a setting on its own, types each alone (a value of the
 * wrong type at one level is dropped alone, and the problem names that level), and combines the
 * well-typed ones by the rule here. package.json follows the table: `ignored` settings are
 * `"scope": "machine"` and listed in `restrictedConfigurations`, the others are `"scope": "window"`
 * (test/unit/settingsTable.test.ts holds it); README's settings table says the rule per key.
 */

/** Where a value was set: the person's own settings (user, or a remote machine's), the workspace, one of its folders. */
export type SettingLevel = 'user' | 'workspace' | 'folder';

/** How a workspace's value narrows the person's; each kind of setting has the narrowings its values allow. */
export type Narrowing =
  /** A boolean whose `true` restricts (readonly): any level may turn it on, none below the person's turn it off. */
  | { by: 'turningOn' }
  /** A boolean whose `true` widens (a tool group): a workspace may turn it off, never on. */
  | { by: 'turningOff' }
  /** A number that is a budget (megabytes, minutes, a deadline): a workspace may lower it, never raise it. */
  | { by: 'lowering' }
  /** An enum: a workspace's value is taken when what it grants is among what the person's value grants. */
  | { by: 'granting'; grants: Readonly<Record<string, readonly string[]>> }
  /** A list of things refused (a deny list, blocked origins): every level's entries add up. */
  | { by: 'adding' }
  /**
   * A list of things allowed, where empty means all (an allow list, allowed origins): only entries that every
   * level's non-empty list covers are kept; none in common allows nothing (`nothing`), never all.
   */
  | { by: 'within'; covers: (outer: string, inner: string) => boolean; nothing: string };

export type ScopeRule =
  /** Any level may set it, the most specific well-typed one wins: it widens nothing an agent may do. */
  | { workspace: 'sets'; why: string }
  /** Only the person's own settings: a workspace's value is ignored and the person told so. */
  | { workspace: 'ignored'; why: string }
  /** A workspace may only narrow the person's value, as `narrowing` says. */
  | { workspace: 'narrows'; narrowing: Narrowing; why: string };

/**
 * An origin no request can have (`.invalid` is reserved): what allowedOrigins becomes when the levels' lists
 * share no origin, because upstream reads an empty list as "all".
 */
export const NO_ORIGIN_ALLOWED = 'https://no-origin-allowed.invalid';
/** A tools.allow entry no tool is named (tool names have no space): the levels' allow lists share no tool. */
export const NO_TOOL_ALLOWED = 'no tool (the allow lists share none)';

/** The outcome of a workspace's well-typed value against the value so far: the new value, or why it was refused. */
export type Narrowed = { value: unknown } | { widens: string };

/**
 * One narrowing step: `value` (a workspace's or a folder's, well typed) against `base` (the person's own, or the
 * default, already narrowed by the levels above). Lists are handled by `withinLists` and `addedLists` over all levels.
 */
export function narrowed(narrowing: Narrowing, base: unknown, value: unknown): Narrowed {
  switch (narrowing.by) {
    case 'turningOn':
      return base === true && value !== true ? { widens: 'would turn it off' } : { value };
    case 'turningOff':
      return value === true && base !== true ? { widens: 'would turn it on' } : { value };
    case 'lowering':
      return (value as number) > (base as number) ? { widens: `would raise it above ${String(base)}` } : { value };
    case 'granting': {
      const granted = narrowing.grants[String(base)] ?? [];
      const extra = (narrowing.grants[String(value)] ?? []).filter(grant => !granted.includes(grant));
      return extra.length ? { widens: `would add ${extra.join(' and ')}` } : { value };
    }
    case 'adding':
      return { value: [...new Set([...(base as string[]), ...(value as string[])])] };
    case 'within':
      return { value: withinLists(narrowing, [base as string[], value as string[]]) };
  }
}

/** The entries every non-empty list covers (an empty list means all and narrows nothing); none in common is `nothing`. */
export function withinLists(narrowing: Extract<Narrowing, { by: 'within' }>, lists: readonly (readonly string[])[]): string[] {
  const limiting = lists.filter(list => list.length);
  if (!limiting.length) return [];
  const kept = [...new Set(limiting.flat())].filter(entry => limiting.every(list => list.some(other => narrowing.covers(other, entry))));
  return kept.length ? kept : [narrowing.nothing];
}
