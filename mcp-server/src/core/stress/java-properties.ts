/**
 * java.util.Properties text, written and read the way Properties.store / Properties.load(InputStream) do it:
 * the file is ISO-8859-1, so every UTF-16 code unit outside printable ASCII becomes \uXXXX; the characters that
 * end a key or start a comment ('=', ':', '#', '!'), the backslash and control characters are escaped; a key
 * escapes every space, a value only a leading one (load drops whitespace before a value, keeps it after).
 * Pure: cassandra-stress -credentials-file reads such a file (see argv-cassandra-stress.ts).
 */

const hex4 = (c: number) => `\\u${c.toString(16).toUpperCase().padStart(4, '0')}`;

const NAMED: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\f': '\\f', '=': '\\=', ':': '\\:', '#': '\\#', '!': '\\!' };

function escape(s: string, allSpaces: boolean): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const code = s.charCodeAt(i);
    if (ch === ' ') out += allSpaces || i === 0 ? '\\ ' : ' ';
    else if (NAMED[ch] !== undefined) out += NAMED[ch];
    else if (code < 0x20 || code > 0x7e) out += hex4(code);
    else out += ch;
  }
  return out;
}

export const escapePropertiesKey = (key: string): string => escape(key, true);
export const escapePropertiesValue = (value: string): string => escape(value, false);

/** The whole file: one `key=value` line per entry, in order, pure ASCII. */
export function propertiesText(entries: readonly (readonly [string, string])[]): string {
  return entries.map(([k, v]) => `${escapePropertiesKey(k)}=${escapePropertiesValue(v)}\n`).join('');
}

const WS = new Set([' ', '\t', '\f']);

/** Joins continuation lines (an odd number of trailing backslashes) and drops blank and comment lines. */
function logicalLines(text: string): string[] {
  const raw = text.split(/\r\n|\r|\n/);
  const out: string[] = [];
  let cur: string | null = null;
  for (let line of raw) {
    // Leading whitespace is dropped on every natural line, including continuations.
    let i = 0;
    while (i < line.length && WS.has(line[i]!)) i++;
    line = line.slice(i);
    if (cur === null && (line === '' || line[0] === '#' || line[0] === '!')) continue;
    let slashes = 0;
    for (let j = line.length - 1; j >= 0 && line[j] === '\\'; j--) slashes++;
    const continued = slashes % 2 === 1;
    const body = continued ? line.slice(0, -1) : line;
    cur = (cur ?? '') + body;
    if (!continued) {
      out.push(cur);
      cur = null;
    }
  }
  if (cur !== null) out.push(cur);
  return out;
}

function unescape(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = s[++i];
    if (next === undefined) break;
    if (next === 'u') {
      const h = s.slice(i + 1, i + 5);
      // Java throws on a malformed \u; a total reader keeps what it can instead.
      if (/^[0-9a-fA-F]{4}$/.test(h)) {
        out += String.fromCharCode(parseInt(h, 16));
        i += 4;
      } else out += 'u';
    } else out += next === 't' ? '\t' : next === 'n' ? '\n' : next === 'r' ? '\r' : next === 'f' ? '\f' : next;
  }
  return out;
}

/** Reads Properties text (as Properties.load would, after decoding the bytes as ISO-8859-1); last key wins. */
export function parseProperties(text: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of logicalLines(text)) {
    let i = 0;
    let keyEnd = line.length;
    let valueStart = line.length;
    while (i < line.length) {
      const ch = line[i]!;
      if (ch === '\\') {
        i += 2;
        continue;
      }
      if (ch === '=' || ch === ':' || WS.has(ch)) {
        keyEnd = i;
        let j = i;
        while (j < line.length && WS.has(line[j]!)) j++;
        // Whitespace may be followed by one '=' or ':' (and more whitespace); '=' / ':' itself ends the key.
        if (!WS.has(ch) || line[j] === '=' || line[j] === ':') {
          if (WS.has(ch)) j++;
          else j = i + 1;
          while (j < line.length && WS.has(line[j]!)) j++;
        }
        valueStart = j;
        break;
      }
      i++;
    }
    map.set(unescape(line.slice(0, keyEnd)), unescape(line.slice(valueStart)));
  }
  return map;
}
