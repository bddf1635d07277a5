/**
 * Upstream writes every step's code against one `page`. A test that follows a second tab needs the
 * tab's own variable there: this puts another name in place of the `page` identifier, leaving string
 * literals, comments and property names (`.page`) alone.
 */
export function onPage(line: string, variable: string): string {
  if (variable === 'page') return line;
  let out = '';
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    if (ch === '"' || ch === "'" || ch === '`') {
      // Copy the whole literal, escapes included.
      let j = i + 1;
      while (j < line.length && line[j] !== ch) j += line[j] === '\\' ? 2 : 1;
      out += line.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (ch === '/' && line[i + 1] === '/') return out + line.slice(i);
    if (/[A-Za-z_$]/.test(ch)) {
      let j = i;
      while (j < line.length && /[\w$]/.test(line[j])) j++;
      const word = line.slice(i, j);
      const previous = out.trimEnd().slice(-1);
      out += word === 'page' && previous !== '.' ? variable : word;
      i = j;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}

/**
 * A JavaScript single-quoted string literal of the text: the text may be the page's, so every character
 * that could end the literal or the line is escaped.
 */
export function quote(text: string): string {
  const escaped = text.replace(
    /[\\'\n\r\u2028\u2029]/g,
    ch => ({ '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\u2028': '\\u2028', '\u2029': '\\u2029' })[ch] ?? ch,
  );
  return `'${escaped}'`;
}

/** The address as the test says it: relative to baseURL when it is on that origin. */
export function addressFor(url: string, baseURL: string | undefined): string {
  if (!baseURL || !url.startsWith(`${baseURL}/`)) return quote(url);
  return quote(url.slice(baseURL.length));
}
