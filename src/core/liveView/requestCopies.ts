/**
 * A request the person opened in the Network pane, written out: as a cURL command and as a `fetch`
 * call (Copy as cURL / Copy as fetch), and as Markdown for chat (Add to Chat). Built from the masked
 * details the child sent: a secret of the bridge stays `<secret>NAME</secret>`, which cURL reads from
 * the environment variable of that name (only on the secret's own sites). The cURL command is for POSIX
 * shells (bash, zsh; on Windows Git Bash or WSL), as its button says.
 */
import type { Header, RequestBody, RequestDetail } from '../../protocol/childMessages';

/** Headers the browser or the network stack sets itself: a copy that repeats them would lie or break (an encoded body curl cannot read). */
const LEFT_OUT = new Set(['content-length', 'accept-encoding', 'connection', 'host']);
/** Headers that carry the person's credentials: never written into chat. */
const CREDENTIALS = new Set(['cookie', 'set-cookie', 'authorization', 'proxy-authorization']);
const SECRET = /<secret>([A-Za-z_]\w*)<\/secret>/g;

const sent = (headers: Header[]) => headers.filter(header => !LEFT_OUT.has(header.name.toLowerCase()));

/**
 * A POSIX shell word (bash, zsh): single quotes, with a secret of the bridge read from its environment
 * variable. `expand`: the secret names this request's site may have: a page can send the text
 * `<secret>HOME</secret>` or `<secret>BANK_PASSWORD</secret>` itself, and a copied command must never read
 * the person's variables into a request to a site the secret is not typed on.
 */
function shellWordOf(text: string, expand: readonly string[]): string {
  const quoted = `'${text.replace(/'/g, `'\\''`)}'`;
  const word = quoted.replace(SECRET, (all, name: string) => (expand.includes(name) ? `'"$${name}"'` : all)).replace(/^''(?=.)|(?<=.)''$/g, '');
  return word || "''";
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
  const shellWord = (text: string) => shellWordOf(text, expand);
  // --globoff: braces and brackets in an address are the page's, not curl's ranges (which would send it many times).
  const lines = [`curl --globoff ${shellWord(detail.url)}`];
  // The method is the page's to choose (fetch takes almost any token): quoted like everything else.
  if (detail.method !== 'GET' && !(detail.method === 'POST' && textOf(detail.requestBody) !== undefined)) lines.push(`-X ${shellWord(detail.method)}`);
  for (const header of sent(detail.requestHeaders)) lines.push(`-H ${shellWord(`${header.name}: ${header.value}`)}`);
  const body = textOf(detail.requestBody);
  if (body !== undefined) lines.push(`--data-raw ${shellWord(body)}`);
  const note = bodyLeftOut(detail.requestBody);
  return lines.join(' \\\n  ') + (note ? `\n# ${note}` : '') + '\n';
}

export function toFetch(detail: RequestDetail): string {
  const headers = Object.fromEntries(sent(detail.requestHeaders).map(header => [header.name, header.value]));
  const init: Record<string, unknown> = { method: detail.method, headers };
  const body = textOf(detail.requestBody);
  if (body !== undefined) init.body = body;
  const note = bodyLeftOut(detail.requestBody);
  return `${note ? `// ${note}\n` : ''}await fetch(${JSON.stringify(detail.url)}, ${JSON.stringify(init, null, 2)});\n`;
}

/** Add to Chat: the request as Markdown for the agent to debug: credentials left out, bodies capped. */
export function toChatMarkdown(detail: RequestDetail, bodyChars = 20000): string {
  const headerLines = (headers: Header[]) => headers.length
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
    '## Request headers', '', ...headerLines(detail.requestHeaders), '',
    '## Request body', '', ...bodyBlock(detail.requestBody, bodyChars), '',
    '## Response headers', '', ...headerLines(detail.responseHeaders), '',
    '## Response body', '', ...bodyBlock(detail.responseBody, bodyChars), '',
  ].join('\n');
}

/** The body as the child sent it for chat: JSON already pretty-printed there, before masking (never decoded again here: a decode could spell a masked secret plainly). */
function bodyBlock(body: RequestBody, max: number): string[] {
  const text = textOf(body);
  if (text === undefined) return [bodyLeftOut(body) ?? body.reason ?? '(none)'];
  const cut = text.length > max;
  const fence = '`'.repeat(Math.max(3, ...(text.match(/`+/g) ?? []).map(run => run.length + 1)));
  return [
    `${fence}${body.kind === 'json' ? 'json' : ''}`, cut ? text.slice(0, max) : text, fence,
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
