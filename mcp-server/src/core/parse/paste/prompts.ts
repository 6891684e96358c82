/**
 * Command echoes in a paste: the shell or cqlsh prompt line an operator copies together with the output
 * (`$ nodetool status`, `root@cassandra-0:/# nodetool tpstats`, `[centos@ip-1 ~]$ nodetool cfstats`, `cqlsh> …`).
 * They are separators, never content to strip.
 */

export type PromptKind = 'shell' | 'cqlsh';

export interface Prompt {
  kind: PromptKind;
  /** The command after the prompt, trimmed. */
  command: string;
}

/** Tools whose output cql-tuner reads, and the shell commands around them: only these make `# ` a root prompt. */
const COMMANDS = ['nodetool', 'cqlsh', 'scylla\\S*', 'cassandra\\S*', 'sstable\\S*', 'kubectl', 'docker', 'podman', 'journalctl', 'grep', 'egrep', 'zgrep'];
const MORE_COMMANDS = ['tail', 'head', 'cat', 'less', 'iostat', 'vmstat', 'sar', 'lsblk', 'df', 'free', 'uptime', 'time', 'ssh'];
const KNOWN_COMMAND = new RegExp(`^(?:sudo\\s+)?(?:${[...COMMANDS, ...MORE_COMMANDS].join('|')})\\b`);

/** `user@host:path$ ` / `user@host path # `, `[user@host path]$ `, bare `$ ` (and `% `); `# ` only before a known command. */
const USER_HOST = /^ {0,3}(?:\[[\w.-]{1,64}@[\w.-]{1,255}[^\]\n]{0,200}\]|[\w.-]{1,64}@[\w.-]{1,255}(?::[^\s$#]{0,200})?(?: [^\s$#]{1,200})?) ?[$#] +(\S.*)$/;
const DOLLAR = /^ {0,3}[$%] +(\S.*)$/;
const HASH = /^ {0,3}# +(\S.*)$/;
const CQLSH = /^ {0,3}(?:[\w.-]{1,64}@)?cqlsh(?::[\w"]{1,64})?> +(\S.*)$/;

/**
 * The prompt on this line, or null. `hashIsComment` turns `# ` off for texts that use it for comments (a YAML file
 * whose comment says `# nodetool drain` is not a root prompt).
 */
export function promptOf(line: string, hashIsComment = false): Prompt | null {
  if (line.length > 4096) return null;
  const c = CQLSH.exec(line);
  if (c) return { kind: 'cqlsh', command: c[1]!.trim() };
  const u = USER_HOST.exec(line) ?? DOLLAR.exec(line);
  if (u) return { kind: 'shell', command: u[1]!.trim() };
  if (!hashIsComment) {
    const h = HASH.exec(line);
    if (h && KNOWN_COMMAND.test(h[1]!)) return { kind: 'shell', command: h[1]!.trim() };
  }
  return null;
}

/**
 * Two or more single-`#` lines that are not a known command: the text writes comments with `#` (YAML, jvm.options),
 * so `# nodetool drain` in it is a comment, not a root prompt. (`## ` markdown headings do not count.)
 */
export function usesHashComments(lines: readonly string[]): boolean {
  let comments = 0;
  for (const l of lines) {
    if (!/^\s*#(?!#)/.test(l)) continue;
    const h = HASH.exec(l);
    if ((h === null || !KNOWN_COMMAND.test(h[1]!)) && ++comments >= 2) return true;
  }
  return false;
}
