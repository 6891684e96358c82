/**
 * A paste that holds several outputs (`$ nodetool status` … `$ nodetool tpstats` …, a fenced block per command,
 * `## nodetool status` headings) is cut into parts, each to be detected alone. The paste is cleaned first
 * (clean.ts) so quoted or prefixed prompts are seen; every part keeps the original line numbers of its lines.
 */
import { cleanPaste, type Cleaned } from './clean.js';
import { promptOf, usesHashComments, type PromptKind } from './prompts.js';

export interface PastePart {
  /** The part's cleaned lines; a command echo stays as its first line (statusbinary and others read it). */
  text: string;
  /** Original 1-based line number of each line of text. */
  lineMap: number[];
  /** The command the operator ran, when a prompt line opened the part. */
  command: string | null;
  /** The heading that named the part, when one did. */
  heading: string | null;
  /** The host whose output this is, when the paste prefixed each line with it (fabric's "[host] out: "). */
  host: string | null;
  /** First and last original line of the part (1-based, inclusive). */
  from: number;
  to: number;
}

export interface SplitPaste {
  cleaned: Cleaned;
  parts: PastePart[];
}

/** Pastes are small; past this a text is one output (a log file), and is not scanned for separators. */
export const MAX_SPLIT_CHARS = 2_000_000;

/** `## nodetool status`, `### tpstats on node 2` (one `#` is a comment or a root prompt: prompts.ts). */
const MD_HEADING = /^ {0,3}#{2,6} +(\S.{0,200})$/;
/** A label line naming a command: `nodetool status:`, `Output of nodetool tpstats`, `**nodetool info**`. */
const LABEL = /^ {0,3}(?:\*\*|__)?(?:(?:output|result)s? (?:of|from) )?`?((?:nodetool|cqlsh|iostat|vmstat) [\w -]{0,80}?)`?(?:\*\*|__)?:? *$/i;

interface Open {
  lines: string[];
  map: number[];
  command: string | null;
  heading: string | null;
  prompt: PromptKind | null;
  /** Non-empty lines that are not command echoes. */
  output: number;
  host?: string;
}

/**
 * Cheap look for anything that could separate outputs (a prompt, a fence, a heading, a label), quoted or not:
 * a text without one is one output and is not cleaned and scanned again.
 */
const SEPARATOR_HINT =
  /^(?:> ?){0,8}[ \t]{0,8}(?:[$%#] |`{3}|~{3}|#{2,6} |\[?[\w.-]{1,64}@|\[[\w.:-]{1,64}\] (?:out|run|sudo):|cqlsh|\W{0,2}(?:output|result|nodetool|iostat|vmstat)\b)/im;

/**
 * Fabric's per-host lines, the same command run on several nodes: "[host] run: nodetool compactionstats",
 * "[host] out: pending tasks: 29", "[host] Executing task 'x'". The hosts' lines may interleave.
 */
const FABRIC = /^\[([\w.:-]{1,64})\] (out|err|run|sudo|Executing task)(?::(?: (.*))?| (.*))?$/;

export function maySplit(text: string): boolean {
  return typeof text === 'string' && text.length <= MAX_SPLIT_CHARS && SEPARATOR_HINT.test(text);
}

export function splitPaste(text: string): SplitPaste {
  const cleaned = cleanPaste(text);
  if (typeof text !== 'string' || text.length > MAX_SPLIT_CHARS) return { cleaned, parts: [whole(cleaned)] };
  const lines = cleaned.text.split('\n');
  const byHost = fabricParts(lines, cleaned.lineMap);
  if (byHost) return { cleaned, parts: byHost };
  const hashIsComment = usesHashComments(lines.slice(0, 5000));
  const parts: PastePart[] = [];
  let open: Open = fresh(null, null, null);

  const close = () => {
    // A command with nothing after it, a heading over nothing, blank lines: no output to detect.
    if (open.output > 0 || (open.prompt === 'cqlsh' && open.lines.length > 0)) parts.push(toPart(open));
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const n = cleaned.lineMap[i]!;
    // Lines were dropped here (only fence lines ever are): a fenced block ends or begins.
    if (i > 0 && n > cleaned.lineMap[i - 1]! + 1 && open.output > 0) {
      close();
      open = fresh(null, null, null);
    }
    const p = promptOf(line, hashIsComment);
    if (p !== null) {
      // Consecutive command lines with no output between them belong together (a cqlsh session's statements).
      if (open.output > 0 || (open.prompt !== null && open.prompt !== p.kind)) {
        close();
        open = fresh(p.command, open.output > 0 ? null : open.heading, p.kind);
      } else {
        open.command = p.command;
        open.prompt = p.kind;
      }
      open.lines.push(line);
      open.map.push(n);
      continue;
    }
    const h = hashIsComment ? null : MD_HEADING.exec(line);
    const label = LABEL.exec(line);
    if (h !== null || label !== null) {
      close();
      open = fresh(null, (h?.[1] ?? label?.[1] ?? '').trim(), null);
      continue;
    }
    open.lines.push(line);
    open.map.push(n);
    if (line.trim() !== '') open.output++;
  }
  close();
  if (parts.length === 0) return { cleaned, parts: [whole(cleaned)] };
  return { cleaned, parts };
}

function fresh(command: string | null, heading: string | null, prompt: PromptKind | null): Open {
  return { lines: [], map: [], command, heading, prompt, output: 0 };
}

function toPart(o: Open): PastePart {
  // Leading and trailing blank lines are not part of the output.
  let a = 0;
  let b = o.lines.length;
  while (a < b && o.lines[a]!.trim() === '') a++;
  while (b > a && o.lines[b - 1]!.trim() === '') b--;
  const lineMap = o.map.slice(a, b);
  return {
    text: o.lines.slice(a, b).join('\n'),
    lineMap,
    command: o.command,
    heading: o.heading,
    host: o.host ?? null,
    from: lineMap[0] ?? 0,
    to: lineMap[lineMap.length - 1] ?? 0,
  };
}

function whole(c: Cleaned): PastePart {
  return { text: c.text, lineMap: c.lineMap, command: null, heading: null, host: null, from: c.lineMap[0] ?? 1, to: c.lineMap[c.lineMap.length - 1] ?? 1 };
}

/**
 * A fabric run's output regrouped by host: one part per host (its output lines, its last command, the host as the
 * heading), in order of first appearance; lines without a host prefix form a part of their own. Null unless at
 * least two output lines carry a host prefix.
 */
function fabricParts(lines: readonly string[], lineMap: readonly number[]): PastePart[] | null {
  let outs = 0;
  for (let i = 0; i < lines.length && outs < 2; i++) if (lines[i]!.startsWith('[') && FABRIC.exec(lines[i]!)?.[2] === 'out') outs++;
  if (outs < 2) return null;
  const hosts = new Map<string, Open>();
  const rest: Open = fresh(null, null, null);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const m = line.startsWith('[') ? FABRIC.exec(line) : null;
    if (m === null) {
      rest.lines.push(line);
      rest.map.push(lineMap[i]!);
      if (line.trim() !== '') rest.output++;
      continue;
    }
    const host = m[1]!;
    let o = hosts.get(host);
    if (o === undefined) {
      o = { ...fresh(null, host, null), host };
      hosts.set(host, o);
    }
    const what = m[2]!;
    const payload = m[3] ?? m[4] ?? '';
    if (what === 'run' || what === 'sudo') o.command = payload.trim() || o.command;
    else if (what === 'out' || what === 'err') {
      o.lines.push(payload);
      o.map.push(lineMap[i]!);
      if (payload.trim() !== '') o.output++;
    }
  }
  const parts: PastePart[] = [];
  const opened = [...hosts.values()];
  if (rest.output > 0) opened.push(rest);
  for (const o of opened.sort((a, b) => (a.map[0] ?? 0) - (b.map[0] ?? 0))) if (o.output > 0) parts.push(toPart(o));
  return parts.length ? parts : null;
}
