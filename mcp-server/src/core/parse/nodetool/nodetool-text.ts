/** Small helpers shared by the nodetool parsers: prompt removal, error detection, tolerant numbers. */
import { cleanLines } from '../../text.js';
import { parseNumber } from '../../units.js';

// "$ nodetool tpstats", "root@n1:~# nodetool -h x ring", "[root@n1 ~]# nodetool status", "(venv) u@h:~$ nodetool …",
// "$ ccm node1 nodetool compactionstats", "PS C:\> ...\nodetool.bat gcstats"
const PROMPT_LINE = /^(?:\([^)]*\)\s*)?(?:PS\s+)?(?:\[[^\]]*\]|[^\s$#%>]*)[$#%>]\s*(?:.*\s)?(?:\S*[/\\])?nodetool(?:\.bat|\.sh)?(?:\s|$)/;
// The same command pasted without a prompt: "nodetool -h 10.0.0.1 tpstats", "sudo nodetool status".
const BARE_COMMAND =
  /^(?:sudo\s+(?:-\S+\s+)*|ccm\s+\S+\s+|(?:kubectl|docker|podman)\s+exec\s+.*?\s)?(?:\S*[/\\])?nodetool(?:\.bat|\.sh)?(?:\s+-{1,2}[\w-]+(?:[ =]\S+)?)*\s+[a-z]+(?:\s.*)?$/;

/**
 * Output lines ready for a parser: CRLF/ANSI/log prefixes and common indentation removed (cleanLines), shell
 * prompt lines that ran nodetool dropped, then re-indented so the output's own alignment is what remains.
 */
export function nodetoolLines(text: string): string[] {
  const all = cleanLines(text);
  const kept = all.filter((l) => !(l.includes('nodetool') && (PROMPT_LINE.test(l) || BARE_COMMAND.test(l.trim()))));
  return kept.length === all.length ? all : cleanLines(kept.join('\n'));
}

/**
 * nodetool printed a failure instead of its report (pasted with the output, or captured from stderr).
 * Only the first non-blank line is judged, so a report that mentions "error" later is not mistaken.
 */
export function nodetoolError(lines: readonly string[]): string | null {
  const first = lines.find((l) => l.trim() !== '')?.trim();
  if (!first) return null;
  if (
    /^error:\s/i.test(first) ||
    /^nodetool:\s/.test(first) ||
    /^Exception in thread\b/.test(first) ||
    /^-- StackTrace --/.test(first) ||
    /^(?:[a-z]\w*\.)+[A-Z]\w*(?:Exception|Error)\b/.test(first)
  ) {
    return `nodetool printed an error instead of its report: ${first.slice(0, 200)}`;
  }
  return null;
}

/** A number as nodetool prints it; null for NaN, N/A, n/a, "?" or anything else that is not a number. */
export function num(text: string | undefined): number | null {
  if (text === undefined) return null;
  const t = text.trim();
  if (/^(?:n\/a|\?|-|null)$/i.test(t)) return null;
  return parseNumber(t);
}

/** Leading whitespace width, a tab counting as one column (nodetool indents with tabs or spaces, never both). */
export function indentOf(line: string): number {
  return /^[ \t]*/.exec(line)![0].length;
}

/** "0h00m04s" → 4; null for "n/a" or anything else. */
export function parseHms(text: string): number | null {
  const m = /^(\d+)h(\d{1,2})m(\d{1,2})s$/.exec(text.trim());
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : null;
}

/** Keeps a warning list readable when a paste is mostly something else: the first `max`, then a count. */
export function limitWarnings(warnings: string[], max = 12): string[] {
  return warnings.length <= max ? warnings : [...warnings.slice(0, max), `… and ${warnings.length - max} more warnings`];
}
