/**
 * One definition per tool of the bridge's own (src/core/tools/own/, one file each): its name, title and
 * description, its input as a zod schema, its traits (who answers it, what an export makes of it, how a call is
 * said). The JSON schema it is published with (to chat's tools, to MCP clients, in package.json through
 * `npm run generate:tools`) is derived from the input, and its handler parses its arguments with the same
 * schema, so the arguments a tool takes are written once.
 */
import type { Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { CallArgs } from './callWords';

/** Who answers one of the bridge's own tools: the child, on the caller's page (`onPage`) or before any session; or the extension host. */
export type OwnHandler = 'child' | 'host';

/** What the registry records of an own tool beside its definition (toolRegistry.ts `ToolRecord`). */
export interface OwnTraits {
  handler: OwnHandler;
  /** The child answers it on the caller's own context and current tab, in upstream's place on its call path. */
  onPage?: boolean;
  actsOnPage: boolean;
  observation: boolean;
  exportAs: 'own' | 'comment';
  filename?: 'writes';
}

export interface OwnToolSpec<Name extends string, Input extends z.ZodObject> {
  name: Name;
  title: string;
  description: string;
  /** Its arguments; published strict (an argument it does not take is refused). */
  input: Input;
  annotations?: Omit<ToolAnnotations, 'title'>;
  traits: OwnTraits;
  /** What a call does, in one line for the person; absent: its title and key argument. */
  says?: (args: CallArgs) => string;
}

export interface OwnTool<Name extends string = string, Input extends z.ZodObject = z.ZodObject> extends OwnToolSpec<Name, Input> {
  /** As published: its JSON schema derived from `input`. */
  definition: Tool;
  /** The arguments of a call, typed by the input, or what is wrong with them in words. */
  parse(args: unknown): { args: z.infer<Input> } | { badArgs: string };
}

/** What a value is, as the problem quotes it. */
const given = (value: unknown): string => (value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value)));

/** The first problem zod found with a call's arguments, as the model reads it: which argument, what it must be, what it got. */
function problemOf(error: z.ZodError): string {
  const issue = error.issues[0];
  const name = issue.path.join('.') || 'the arguments';
  const got = 'input' in issue ? `; got ${given(issue.input)}` : '';
  switch (issue.code) {
    case 'invalid_value':
      return `${name} must be one of ${issue.values.map(String).join(', ')}${got}`;
    case 'too_small':
      return `${name} must be ${issue.inclusive ? 'at least' : 'more than'} ${String(issue.minimum)}${got}`;
    case 'too_big':
      return `${name} must be ${issue.inclusive ? 'at most' : 'less than'} ${String(issue.maximum)}${got}`;
    case 'invalid_type':
      return `${name} must be ${issue.expected === 'int' ? 'a whole number' : `a ${issue.expected}`}${got}`;
    case 'unrecognized_keys':
      return `the tool does not take ${issue.keys.map(key => `"${key}"`).join(', ')}`;
    default:
      return `${name}: ${issue.message}`;
  }
}

export function defineOwnTool<Name extends string, Input extends z.ZodObject>(spec: OwnToolSpec<Name, Input>): OwnTool<Name, Input> {
  const input = spec.input.strict() as unknown as Input;
  const { $schema: _draft, ...inputSchema } = z.toJSONSchema(input, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  return {
    ...spec,
    input,
    definition: {
      name: spec.name,
      title: spec.title,
      description: spec.description,
      inputSchema: inputSchema as Tool['inputSchema'],
      annotations: { title: spec.title, ...spec.annotations },
    },
    parse(args) {
      const parsed = input.safeParse(args ?? {}, { reportInput: true });
      return parsed.success ? { args: parsed.data } : { badArgs: problemOf(parsed.error) };
    },
  };
}
