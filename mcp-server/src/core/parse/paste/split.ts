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
}

/**
 * Cheap look for anything that could separate outputs (a prompt, a fence, a heading, a label), quoted or not:
 * a text without one is one output and is not cleaned and scanned again.
 */
const SEPARATOR_HINT = /^(?:> ?){0,8}[ \t]{0,8}(?:[$%#] |`{3}|~{3}|#{2,6} |\[?[\w.-]{1,64}@|cqlsh|\W{0,2}(?:output|result|nodetool|iostat|vmstat)\b)/im;

export function maySplit(text: string): boolean {
  return typeof text === 'string' && text.length <= MAX_SPLIT_CHARS && SEPARATOR_HINT.test(text);
}

export function splitPaste(text: string): SplitPaste {
  const cleaned = cleanPaste(text);
  if (typeof text !== 'string' || text.length > MAX_SPLIT_CHARS) return { cleaned, parts: [whole(cleaned)] };
  const lines = cleaned.text.split('\n');
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
  return { text: o.lines.slice(a, b).join('\n'), lineMap, command: o.command, heading: o.heading, from: lineMap[0] ?? 0, to: lineMap[lineMap.length - 1] ?? 0 };
}

function whole(c: Cleaned): PastePart {
  return { text: c.text, lineMap: c.lineMap, command: null, heading: null, from: c.lineMap[0] ?? 1, to: c.lineMap[c.lineMap.length - 1] ?? 1 };
}
