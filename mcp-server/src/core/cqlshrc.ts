/**
 * cqlshrc, the file operators already keep their cqlsh connection settings in (INI, read by cqlsh with Python's
 * configparser). Pure: text in, typed settings out; never throws. Read here:
 * - [authentication] username, password, credentials (a separate file holding [PlainTextAuthProvider] username/password,
 *   cqlsh 4.1+; its path is returned for the caller to read);
 * - [connection] hostname, port, ssl;
 * - [ssl] certfile (the CA to trust), validate, userkey, usercert (client certificate).
 * Other sections and keys are ignored. Values are returned as written (paths unexpanded: `~` is the caller's job).
 */

export interface CqlshrcSettings {
  username?: string;
  password?: string;
  /** [authentication] credentials: a file with [PlainTextAuthProvider] username / password. */
  credentialsFile?: string;
  hostname?: string;
  port?: number;
  /** [connection] ssl; undefined when not set. */
  ssl?: boolean;
  certfile?: string;
  /** [ssl] validate; cqlsh's default is true. */
  validate?: boolean;
  userkey?: string;
  usercert?: string;
  /** Lines or values that could not be read (never holding a value, which may be a password). */
  warnings: string[];
}

export type IniSections = Map<string, Map<string, string>>;

/** configparser's basic syntax: [section], key = value or key: value, ; and # comment lines, keys case-insensitive. */
export function parseIni(text: string): { sections: IniSections; warnings: string[] } {
  const sections: IniSections = new Map();
  const warnings: string[] = [];
  let current: Map<string, string> | null = null;
  let lastKey: string | null = null;
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    if (/^\s*([;#].*)?$/.test(raw)) {
      lastKey = null;
      continue;
    }
    const section = /^\s*\[([^\]]+)\]\s*$/.exec(raw);
    if (section) {
      const name = section[1]!.trim();
      current = sections.get(name) ?? new Map();
      sections.set(name, current);
      lastKey = null;
      continue;
    }
    // An indented line continues the previous value (configparser's multi-line values).
    if (/^\s/.test(raw) && current && lastKey) {
      current.set(lastKey, `${current.get(lastKey) ?? ''}\n${raw.trim()}`);
      continue;
    }
    const kv = /^\s*([^=:\s][^=:]*?)\s*[=:]\s?(.*)$/.exec(raw);
    if (!kv || !current) {
      warnings.push(`line ${i + 1}: ${current ? 'not a key = value line' : 'a setting before any [section]'}; ignored`);
      lastKey = null;
      continue;
    }
    lastKey = kv[1]!.toLowerCase();
    current.set(lastKey, kv[2]!.trim());
  }
  return { sections, warnings };
}

/** configparser's getboolean: 1/yes/true/on and 0/no/false/off. */
export function iniBoolean(v: string | undefined): boolean | undefined | 'invalid' {
  if (v === undefined) return undefined;
  const s = v.trim().toLowerCase();
  if (['1', 'yes', 'true', 'on'].includes(s)) return true;
  if (['0', 'no', 'false', 'off'].includes(s)) return false;
  return 'invalid';
}

export function parseCqlshrc(text: string): CqlshrcSettings {
  const { sections, warnings } = parseIni(text);
  const out: CqlshrcSettings = { warnings };
  const get = (section: string, key: string): string | undefined => {
    const v = sections.get(section)?.get(key);
    return v === undefined || v === '' ? undefined : v;
  };
  const bool = (section: string, key: string): boolean | undefined => {
    const b = iniBoolean(get(section, key));
    if (b === 'invalid') {
      warnings.push(`[${section}] ${key} is not a boolean (true/false, yes/no, 1/0); ignored`);
      return undefined;
    }
    return b;
  };
  const set = <K extends keyof CqlshrcSettings>(k: K, v: CqlshrcSettings[K] | undefined): void => {
    if (v !== undefined) out[k] = v;
  };
  set('username', get('authentication', 'username'));
  // Kept exactly as written, spaces inside included: only the surrounding whitespace configparser strips is gone.
  set('password', sections.get('authentication')?.get('password'));
  set('credentialsFile', get('authentication', 'credentials'));
  set('hostname', get('connection', 'hostname'));
  const port = get('connection', 'port');
  if (port !== undefined) {
    const n = /^\d{1,5}$/.test(port) ? Number(port) : NaN;
    if (n >= 1 && n <= 65535) out.port = n;
    else warnings.push('[connection] port is not a port number (1–65535); ignored');
  }
  set('ssl', bool('connection', 'ssl'));
  set('certfile', get('ssl', 'certfile'));
  set('validate', bool('ssl', 'validate'));
  set('userkey', get('ssl', 'userkey'));
  set('usercert', get('ssl', 'usercert'));
  return out;
}

/** The file [authentication] credentials names: [PlainTextAuthProvider] username / password (cqlsh 4.1+). */
export function parseCqlshCredentials(text: string): { username?: string; password?: string; warnings: string[] } {
  const { sections, warnings } = parseIni(text);
  const s = sections.get('PlainTextAuthProvider');
  const username = s?.get('username');
  const password = s?.get('password');
  if (!s) warnings.push('no [PlainTextAuthProvider] section');
  return { ...(username ? { username } : {}), ...(password !== undefined ? { password } : {}), warnings };
}
