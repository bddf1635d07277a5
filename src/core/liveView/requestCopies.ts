/**
 * A request the person opened in the Network pane, written out: as a cURL command and as a `fetch`
 * call (Copy as cURL / Copy as fetch), and as Markdown for chat (Add to Chat). Built from the masked
 * details the child sent: a secret of the bridge stays `<secret>NAME</secret>`, which cURL reads from
 * the environment variable of that name (only on the secret's own sites). The cURL command is for POSIX
 * shells (bash, zsh, dash; on Windows Git Bash or WSL), as its button says; how its words are written so
 * that any paste reads them back as the page's text, and as nothing else, is the egress gate's shell rule
 * (core/egress/shellWord.ts).
 */
import type { Header, RequestBody, RequestDetail } from '../../protocol/childMessages';
import { needsPrintf, shellPrintf, ShellPiece, shellWord } from '../egress/shellWord';

/** Headers the browser or the network stack sets itself: a copy that repeats them would lie or break (an encoded body curl cannot read). */
const LEFT_OUT = new Set(['content-length', 'accept-encoding', 'connection', 'host']);
/** Headers that carry the person's credentials: never written into chat. */
const CREDENTIALS = new Set(['cookie', 'set-cookie', 'authorization', 'proxy-authorization']);
const SECRET = /<secret>([A-Za-z_]\w*)<\/secret>/g;

const sent = (headers: Header[]) => headers.filter(header => !LEFT_OUT.has(header.name.toLowerCase()));

/**
 * The text as the shell rule's pieces, a secret of the bridge as its environment variable. `expand`: the
 * secret names this request's site may have: a page can send the text `<secret>HOME</secret>` or
 * `<secret>BANK_PASSWORD</secret>` itself, and a copied command must never read the person's variables into
 * a request to a site the secret is not typed on.
 */
function piecesOf(text: string, expand: readonly string[]): ShellPiece[] {
  const pieces: ShellPiece[] = [];
  let from = 0;
  for (const match of text.matchAll(SECRET)) {
    if (!expand.includes(match[1])) continue;
    pieces.push(text.slice(from, match.index), { variable: match[1] });
    from = match.index + match[0].length;
  }
  pieces.push(text.slice(from));
  return pieces.filter(piece => piece !== '');
}

/** `secretSites`: each secret of the bridge and the origins it is typed on (the secrets' sites). */
export function toCurl(detail: RequestDetail, secretSites: Readonly<Record<string, readonly string[]>>): string {
  let origin: string | undefined;
  try {
    origin = new URL(detail.url).origin;
  } catch {
    origin = undefined;
  }
  const expand = Object.keys(secretSites).filter(name => origin && secretSites[name].includes(origin));
  // Only a NUL or a final newline keeps a text from being one word, and a URL, method or header a browser
  // sent holds neither (the URL parser drops newlines, fetch refuses NUL, CR and LF in a header): one that
  // holds them anyway is written without them.
  const word = (text: string, names = expand) => shellWord(piecesOf(text, names)) ?? shellWord(piecesOf(text.replace(/[\0\n]/g, ''), names))!;
  // --globoff: braces and brackets in an address are the page's, not curl's ranges (which would send it many times).
  const lines = [`curl --globoff ${word(detail.url)}`];
  // The method is the page's to choose (fetch takes almost any token): quoted like everything else.
  if (detail.method !== 'GET' && !(detail.method === 'POST' && textOf(detail.requestBody) !== undefined)) lines.push(`-X ${word(detail.method)}`);
  for (const header of sent(detail.requestHeaders)) lines.push(`-H ${word(`${header.name}: ${header.value}`)}`);
  const body = textOf(detail.requestBody);
  // A body with a control character (a newline too) comes from printf on curl's standard input, which
  // carries any byte, NUL and a final newline too, and reads better than words spliced from printfs;
  // --data-binary @- sends it as --data-raw would.
  const printed = body !== undefined && needsPrintf(body);
  if (body !== undefined) lines.push(printed ? '--data-binary @-' : `--data-raw ${word(body)}`);
  const command = (printed ? `${shellPrintf(piecesOf(body, expand))} \\\n  | ` : '') + lines.join(' \\\n  ');
  // The note names the page's MIME type, so it is one quoted word, short enough for one line: zsh without
  // interactive_comments reads a `#` line as a command, and ran a `$(...)` a page put in that type.
  const note = bodyLeftOut({ ...detail.requestBody, mimeType: detail.requestBody.mimeType.slice(0, 100) });
  return command + (note ? `\n# ${word(note, [])}` : '') + '\n';
}

/**
 * JSON.stringify escapes C0 but writes DEL, C1 and U+2028/U+2029 raw. Pasted into a DevTools console they
 * would do no harm, but pasted into a terminal's JavaScript prompt (node's) DEL is a key, C1 are terminal
 * controls, and U+2028/U+2029 end a `//` comment (the note's page-chosen MIME type). So they are written as
 * `\u` escapes: inside the JSON's strings (the only place JSON has them) the very same string to JavaScript.
 */
const JS_RAW = /[\u007f-\u009f\u2028\u2029]/g;
// eslint-disable-next-line no-control-regex -- control characters are what this matches
const NOTE_RAW = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const unicodeEscape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

export function toFetch(detail: RequestDetail): string {
  const headers = Object.fromEntries(sent(detail.requestHeaders).map(header => [header.name, header.value]));
  const init: Record<string, unknown> = { method: detail.method, headers };
  const body = textOf(detail.requestBody);
  if (body !== undefined) init.body = body;
  const note = bodyLeftOut(detail.requestBody)?.replace(NOTE_RAW, unicodeEscape);
  const call = `await fetch(${JSON.stringify(detail.url)}, ${JSON.stringify(init, null, 2)});\n`.replace(JS_RAW, unicodeEscape);
  return `${note ? `// ${note}\n` : ''}${call}`;
}

/** Add to Chat: the request as Markdown for the agent to debug: credentials left out, bodies capped. */
export function toChatMarkdown(detail: RequestDetail, bodyChars = 20000): string {
  const headerLines = (headers: Header[]) =>
    headers.length
      ? headers.map(header => `- ${header.name}: ${CREDENTIALS.has(header.name.toLowerCase()) ? '(left out: credentials)' : header.value}`)
      : ['(none)'];
  return [
    `# A request from the browser panel: ${detail.method} ${detail.url}`,
    '',
    `- Status: ${detail.failure ? `failed (${detail.failure})` : `${detail.status}${detail.statusText ? ` ${detail.statusText}` : ''}`}`,
    `- Type: ${detail.resourceType}`,
    ...(detail.remoteAddress ? [`- Server: ${detail.remoteAddress}`] : []),
    ...(detail.timing.length ? [`- Timing: ${detail.timing.map(t => `${t.phase} ${t.ms} ms`).join(', ')}`] : []),
    '',
    '## Request headers',
    '',
    ...headerLines(detail.requestHeaders),
    '',
    '## Request body',
    '',
    ...bodyBlock(detail.requestBody, bodyChars),
    '',
    '## Response headers',
    '',
    ...headerLines(detail.responseHeaders),
    '',
    '## Response body',
    '',
    ...bodyBlock(detail.responseBody, bodyChars),
    '',
  ].join('\n');
}

/** The body as the child sent it for chat: JSON already pretty-printed there, before masking (never decoded again here: a decode could spell a masked secret plainly). */
function bodyBlock(body: RequestBody, max: number): string[] {
  const text = textOf(body);
  if (text === undefined) return [bodyLeftOut(body) ?? body.reason ?? '(none)'];
  const cut = text.length > max;
  const fence = '`'.repeat(Math.max(3, ...(text.match(/`+/g) ?? []).map(run => run.length + 1)));
  return [
    `${fence}${body.kind === 'json' ? 'json' : ''}`,
    cut ? text.slice(0, max) : text,
    fence,
    ...(cut || body.truncated ? [`(${body.size} bytes in all; the first ${Math.min(max, text.length)} characters shown)`] : []),
  ];
}

function textOf(body: RequestBody): string | undefined {
  return (body.kind === 'text' || body.kind === 'json') && !body.truncated ? body.text : undefined;
}

function bodyLeftOut(body: RequestBody): string | undefined {
  if (body.kind === 'binary' || body.kind === 'image') return `The body (${body.mimeType}, ${body.size} bytes) is not text and is left out.`;
  if (body.truncated) return `The body (${body.size} bytes) is larger than the panel keeps and is left out.`;
  return undefined;
}
