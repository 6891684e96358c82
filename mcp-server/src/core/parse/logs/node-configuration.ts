/**
 * The "Node configuration:[key=value; key=value; …]" line Cassandra (2.1 on) and DSE log at start: every field of
 * the loaded Config as Java prints it (Config.java log()). Values are Java toString() texts: numbers, "null",
 * "64MiB/s", "org.apache….SimpleSeedProvider{seeds=…}", "AuditLogOptions{…, logger='BinAuditLogger{}', …}", so a ';'
 * splits pairs only outside braces, brackets, parentheses and quotes. A line cut mid-way (a paste, a truncated log
 * line) keeps its whole pairs and says it is cut. Keys naming a secret, and values that are only a Java object's
 * identity (Class@hash, as DSE 6 logs some options), are dropped. PURE, total, linear.
 */

export interface NodeConfiguration {
  /** key → value as logged ("null" kept: the setting was not set and its default applies). */
  settings: Record<string, string>;
  /** false when the closing "]" was missing: the last, partial pair was left out. */
  complete: boolean;
}

const MAX_KEYS = 1000;
/** A Java array's identity ("[Ljava.lang.String;@31801f", "[I@1b6d3586"): its '[' and ';' are not structure. */
const JAVA_ARRAY = /^\[+(?:L[\w.$]{1,200};|[ZBCSIJFD])@[0-9a-f]{1,16}/;
/** An object's identity (…AuditLoggingOptions@31j0fa0, as DSE logs it): no setting to read, so not kept. */
const IDENTITY = /^(?:\[+(?:L[\w.$]+;|[ZBCSIJFD])|[\w.$]+)@[0-9a-z]+$/;
const MAX_VALUE = 2000;
const SECRET = /password|secret|credential/i;

/** The pairs after "Node configuration:" at `start` of `s`; null when the "[" is missing. */
export function parseNodeConfiguration(s: string, start: number): NodeConfiguration | null {
  const open = s.indexOf('[', start);
  if (open < 0) return null;
  const settings: Record<string, string> = {};
  let depth = 0;
  let quote = false;
  let from = open + 1;
  let count = 0;
  const take = (end: number) => {
    const pair = s.slice(from, end).trim();
    const eq = pair.indexOf('=');
    if (eq > 0 && count < MAX_KEYS) {
      const key = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(key) && !SECRET.test(key) && !IDENTITY.test(value)) {
        settings[key] = value.slice(0, MAX_VALUE);
        count++;
      }
    }
  };
  for (let i = open + 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 39 /* ' */) quote = !quote;
    else if (quote) continue;
    else if (c === 91 /* [ */ && s.charCodeAt(i - 1) === 61 /* = */ && JAVA_ARRAY.test(s.slice(i, i + 240)))
      i += JAVA_ARRAY.exec(s.slice(i, i + 240))![0].length - 1;
    else if (c === 123 || c === 91 || c === 40)
      depth++; // { [ (
    else if (c === 125 || c === 41)
      depth = Math.max(0, depth - 1); // } )
    else if (c === 93 /* ] */) {
      if (depth === 0) {
        take(i);
        return { settings, complete: true };
      }
      depth--;
    } else if (c === 59 /* ; */ && depth === 0) {
      take(i);
      from = i + 1;
    }
  }
  // Cut before its "]": the text after the last ';' may be a partial value.
  return { settings, complete: false };
}
