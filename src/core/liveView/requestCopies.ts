/**
 * A request the person opened in the Network pane, written out: as a cURL command and as a `fetch`
 * call (Copy as cURL / Copy as fetch), and as Markdown for chat (Add to Chat). Built from the masked
 * details the child sent: a secret of the bridge stays `<secret>NAME</secret>`, which cURL reads from
 * the environment variable of that name (only for the bridge's own secret names).
 */
import type { Header, RequestBody, RequestDetail } from '../../protocol/childMessages';

/** Headers the browser or the network stack sets itself: a copy that repeats them would lie or break (an encoded body curl cannot read). */
const LEFT_OUT = new Set(['content-length', 'accept-encoding', 'connection', 'host']);
/** Headers that carry the person's credentials: never written into chat. */
const CREDENTIALS = new Set(['cookie', 'set-cookie', 'authorization', 'proxy-authorization']);
const SECRET = /<secret>([A-Za-z_]\w*)<\/secret>/g;

const sent = (headers: Header[]) => headers.filter(header => !LEFT_OUT.has(header.name.toLowerCase()));

/**
 * A POSIX shell word: single quotes, with a secret of the bridge read from its environment variable. Only
 * the bridge's own secret names: a page can send the text `<secret>HOME</secret>` itself, and a copied command
 * must never read the person's other variables into a request to that page.
 */
function shellWordOf(text: string, secretNames: readonly string[]): string {
  const quoted = `'${text.replace(/'/g, `'\\''`)}'`;
  const word = quoted.replace(SECRET, (all, name: string) => (secretNames.includes(name) ? `'"$${name}"'` : all)).replace(/^''(?=.)|(?<=.)''$/g, '');
  return word || "''";
}

export function toCurl(detail: RequestDetail, secretNames: readonly string[]): string {
  const shellWord = (text: string) => shellWordOf(text, secretNames);
  const lines = [`curl ${shellWord(detail.url)}`];
  if (detail.method !== 'GET' && !(detail.method === 'POST' && textOf(detail.requestBody) !== undefined)) lines.push(`-X ${detail.method}`);
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

function bodyBlock(body: RequestBody, max: number): string[] {
  const text = textOf(body);
  if (text === undefined) return [bodyLeftOut(body) ?? body.reason ?? '(none)'];
  let shown = text;
  if (body.kind === 'json') {
    try {
      shown = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Not valid JSON after all: shown as it came.
    }
  }
  const cut = shown.length > max;
  const fence = '`'.repeat(Math.max(3, ...(shown.match(/`+/g) ?? []).map(run => run.length + 1)));
  return [
    `${fence}${body.kind === 'json' ? 'json' : ''}`, cut ? shown.slice(0, max) : shown, fence,
    ...(cut || body.truncated ? [`(${body.size} bytes in all; the first ${Math.min(max, shown.length)} characters shown)`] : []),
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
