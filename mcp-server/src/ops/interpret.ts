import { nodeEvidence, PASTED_NODE } from '../core/diagnosis/evidence.js';
import { detect, judgeOf, SUPPORTED_KINDS } from '../core/detect.js';
import { nodeFactsFromRaw } from '../core/facts/from-raw.js';
import type { Finding } from '../core/findings.js';
import type { KnowledgeId } from '../core/knowledge/index.js';
import type { LogFacts } from '../core/parse/logs/types.js';
import { runRules, type RulesResult } from '../core/rules/index.js';
import { logNodeConfigurationOutcomes } from '../core/rules/log-node-configuration.js';
import { checkedRow } from '../core/rules/rule.js';
import { worstFirst } from '../core/findings.js';
import { summariseParsed } from '../render/interpret.js';
import { classifyNodetoolFailure } from '../core/nodetool-errors.js';
import { parseOffThread } from './off-thread.js';
import { maySplit, splitPaste, type PastePart } from '../core/parse/paste/split.js';
import { remapLineNumbers } from '../core/parse/paste/line-map.js';
import { describeCleaning } from '../render/interpret.js';
import type { InterpretPartReport, InterpretReport } from '../core/reports/interpret.js';
export type { InterpretPartReport, InterpretReport } from '../core/reports/interpret.js';

/** Known nodetool error texts that mean something specific (each is a trap with a knowledge entry). */
const ERROR_TRAPS: { code: string; knowledgeId: KnowledgeId }[] = [
  { code: 'NO_METRIC_YET', knowledgeId: 'trap.nodetool.proxyhistograms-idle-node' },
  { code: 'NODE_STARTING', knowledgeId: 'trap.nodetool.server-not-initialized' },
];

/**
 * jstat that could not read the JVM: JDK 9+ prints "sun.jvmstat.monitor.MonitorException: <pid> not found" with a
 * stack trace, JDK 8 the message alone (then only taken when the paste names jstat).
 */
const JSTAT_NOT_FOUND = /(?:MonitorException: |^)(\d{1,10}) not found[ \t\r]*$/m;

function explainJstatFailure(text: string): InterpretReport | null {
  const head = text.slice(0, 20_000);
  const m = JSTAT_NOT_FOUND.exec(head);
  if (!m || (!m[0].startsWith('MonitorException') && !/\bjstat\b/.test(head))) return null;
  const id: KnowledgeId = 'trap.jstat.perf-shared-mem-disabled';
  const pid = m[1]!;
  return {
    ...errorReport('jvm.jstat', `jstat could not read JVM ${pid}: no sample was taken`, {
      id,
      severity: 'info',
      title: `jstat could not read JVM ${pid}`,
      evidence: [m[0].trim().slice(0, 200)],
      recommendation:
        'Expected on a Cassandra node: conf/jvm-server.options starts it with -XX:+PerfDisableSharedMem, so jstat and jps find nothing to read. ' +
        'Read GC through `nodetool gcstats`, the GC log, or `jcmd <pid> GC.heap_info` (jcmd attaches another way). ' +
        'On another JVM: check the pid, run as the JVM’s user (`sudo -u cassandra …`), and from the same container (the counters live in its /tmp).',
      knowledgeIds: [id],
      confidence: 'high',
    }),
  };
}

/** A pasted nodetool failure is still evidence: say what it means instead of "not recognised". */
function explainPastedError(text: string): InterpretReport | null {
  const jstat = explainJstatFailure(text);
  if (jstat) return jstat;
  if (!/Exception|error:|Error:|Failed to connect/i.test(text.slice(0, 20_000))) return null;
  if (/Use the -d flag/.test(text)) {
    return errorReport('nodetool.error', 'getstreamthroughput refused to print a cap that is not a whole number of megabits/s', {
      id: 'trap.nodetool.getstreamthroughput-d-flag',
      severity: 'info',
      title: 'getstreamthroughput needs -d on 4.1+ for this cap',
      evidence: [
        text
          .split('\n')
          .find((l) => /-d flag/.test(l))
          ?.trim()
          .slice(0, 200) ?? '',
      ],
      recommendation: 'Not a fault: run `nodetool getstreamthroughput -d` (cql-tuner retries with -d by itself).',
      knowledgeIds: ['trap.nodetool.getstreamthroughput-d-flag'],
      confidence: 'high',
    });
  }
  const c = classifyNodetoolFailure('nodetool', 'the node', 0, text);
  if (c.code === 'NODETOOL_FAILED') return null;
  const trap = ERROR_TRAPS.find((t) => t.code === c.code);
  // The text names no host: drop the placeholder from the classifier's wording.
  const message = c.message.replace(/ ?(?:at |on |to )?the node:0/g, '').replace(/ ?the node/, ' the node');
  return errorReport('nodetool.error', message, {
    id: trap ? trap.knowledgeId : `nodetool.error.${c.code.toLowerCase().replace(/_/g, '-')}`,
    severity: trap ? 'info' : 'warning',
    title: message.split(': ')[0]!.slice(0, 160),
    evidence: [
      text
        .split('\n')
        .find((l) => /Exception|error|Failed/i.test(l))
        ?.trim()
        .slice(0, 300) ?? '',
    ],
    recommendation: c.fix,
    knowledgeIds: trap ? [trap.knowledgeId] : [],
    confidence: 'high',
  });
}

function errorReport(kind: string, summary: string, finding: Finding): InterpretReport {
  return { kind, version: null, ok: true, summary, findings: [finding], checked: [], warnings: [] };
}

/**
 * interpretText for untrusted text in a server: a large text is parsed in a worker thread with a deadline
 * (ops/off-thread.ts), so it blocks no other call; PARSE_TIMEOUT / CANCELLED when it runs past it.
 */
export function interpretOffThread(text: string, opts: { signal?: AbortSignal | undefined; deadlineMs?: number } = {}): Promise<InterpretReport> {
  return parseOffThread('interpret', text, { what: 'the pasted text', chars: text.length, ...opts });
}

/** Kinds whose pasted pieces belong together (several files of one host's set-up), read whole rather than per part. */
const JOINED_KINDS: ReadonlySet<string> = new Set(['host.scylla-setup']);

/**
 * Any pasted output: detect its kind, parse it, run the rules on what it holds. A paste of several outputs
 * (`$ nodetool status` … `$ nodetool tpstats` …) gives a report per output in `parts`.
 */
export function interpretText(text: string): InterpretReport {
  const whole = interpretOne(text);
  if (!maySplit(text)) return whole;
  const split = splitPaste(text);
  if (split.parts.length < 2) return whole;
  const parts = split.parts.map(interpretPart);
  const read = parts.filter((p) => p.ok);
  // Set-up files pasted one after another (cpuset.conf, perftune.yaml, scylla-server) are one output: the rules compare them.
  if (whole.ok && whole.kind !== null && JOINED_KINDS.has(whole.kind) && read.every((p) => p.kind === whole.kind)) return whole;
  // One output among prose and command echoes: the single report, as for a clean capture.
  if (read.length === 0 || (read.length === 1 && whole.ok)) return whole;
  if (read.length === 1) return withoutPartFields(read[0]!);
  return combine(whole, parts, read);
}

function interpretPart(p: PastePart): InterpretPartReport {
  const r = interpretOne(p.text, p.lineMap, p.host ?? PASTED_NODE);
  const { supported: _unused, ...rest } = r;
  return { ...rest, command: p.command, heading: p.heading, lines: { from: p.from, to: p.to } };
}

function withoutPartFields(p: InterpretPartReport): InterpretReport {
  const { command: _c, heading: _h, lines: _l, ...r } = p;
  return r;
}

/**
 * The top level of a multi-output paste: the part of the kind the whole paste reads as (so a consumer reading
 * `kind` sees what it saw before parts existed), else the longest part; findings of every part, worst first.
 */
function combine(whole: InterpretReport, parts: InterpretPartReport[], read: InterpretPartReport[]): InterpretReport {
  const span = (p: InterpretPartReport) => p.lines.to - p.lines.from;
  const main = read.find((p) => whole.ok && p.kind === whole.kind) ?? [...read].sort((a, b) => span(b) - span(a))[0]!;
  const label = (p: InterpretPartReport) => `lines ${p.lines.from}–${p.lines.to}${p.command ? ` (${p.command.slice(0, 60)})` : ''}`;
  const others = parts.filter((p) => p !== main);
  const cleaned = [...new Set(parts.flatMap((p) => p.cleaned ?? []))];
  const summary =
    `${parts.length} outputs in this paste; main: ${main.kind} at ${label(main)}: ${main.summary.replace(/\.$/, '')}. ` +
    `Also: ${others.map((p) => `${p.ok ? p.kind : 'not recognised'} at ${label(p)}`).join('; ')}.`;
  return {
    kind: main.kind,
    version: main.version,
    ok: true,
    summary,
    findings: worstFirst(read.flatMap((p) => p.findings)),
    checked: mergeChecked(read.flatMap((p) => p.checked)),
    warnings: read.flatMap((p) => p.warnings.map((w) => (p === main ? w : `${label(p)}: ${w}`))),
    ...(cleaned.length ? { cleaned } : {}),
    parts,
  };
}

/** One line per rule across parts: checked when any part checked it, with the findings of all. */
function mergeChecked(all: RulesResult['outcomes']): RulesResult['outcomes'] {
  const byRule = new Map<string, RulesResult['outcomes'][number]>();
  for (const o of all) {
    const seen = byRule.get(o.rule);
    if (seen === undefined) byRule.set(o.rule, o);
    else if (!seen.checked && o.checked) byRule.set(o.rule, { ...o, findings: o.findings + seen.findings });
    else byRule.set(o.rule, { ...seen, findings: seen.findings + (o.checked ? o.findings : 0) });
  }
  return [...byRule.values()];
}

/** One output. lineMap: the original line of each line of text, when text is a part of a paste. */
function interpretOne(text: string, lineMap?: readonly number[], node: string = PASTED_NODE): InterpretReport {
  const d = detect(text);
  if (!d.ok) {
    const failure = explainPastedError(text);
    if (failure) return failure;
    const cleanedNote = d.cleaned?.length ? ` (also tried after stripping ${describeCleaning(d.cleaned)})` : '';
    return {
      kind: null,
      version: null,
      ok: false,
      summary: `Not recognised: ${d.reason}.${d.tried.length ? ` (${d.tried.map((t) => `${t.kind}: ${t.reason}`).join('; ')})` : ''}${cleanedNote}`,
      findings: [],
      checked: [],
      supported: SUPPORTED_KINDS,
      warnings: [],
    };
  }
  if (lineMap) remapLineNumbers(d.parsed.value, lineMap);
  // A nodetool kind is parsed again from its text below: the cleaned text when the paste had wrappers.
  const readText = d.cleanedText ?? text;
  const name = d.kind.startsWith('nodetool.') ? `nodetool:${d.kind.slice('nodetool.'.length)}` : null;
  let findings: Finding[] = [];
  let checked: RulesResult['outcomes'] = [];
  const judge = judgeOf(d.kind);
  if (judge?.by === 'log-rules') {
    const logs = d.parsed.value as LogFacts;
    const result = runRules({ origin: 'pasted log', nodes: [{ ...nodeEvidence(node, true, { facts: {}, nodetool: {} }), logs }] });
    // the settings the node logged at start, judged like a cassandra.yaml
    const config = logNodeConfigurationOutcomes(logs);
    findings = config.length ? worstFirst([...result.findings, ...config.flatMap((o) => o.findings)]) : result.findings;
    checked = [...result.outcomes.filter((o) => o.rule === 'logs' || o.rule === 'traps'), ...config.map(checkedRow)];
  } else if (judge?.by === 'kind-rules') {
    const outcomes = judge.rules.run(d.kind, d.parsed.value);
    findings = worstFirst(outcomes.flatMap((o) => o.findings));
    checked = outcomes.map(checkedRow);
  } else if (judge?.by === 'node-rules' && name) {
    const r = nodeFactsFromRaw([{ name, text: readText }]);
    const result = runRules({ origin: `pasted ${d.kind}`, nodes: [nodeEvidence(node, true, r)] });
    findings = result.findings;
    checked = result.outcomes;
  }
  if (d.kind === 'nodetool.gcstats') {
    const gc = d.parsed.value as { reclaimedBytes: number | null };
    if (gc.reclaimedBytes) {
      findings.push({
        id: 'trap.nodetool.gcstats-reclaimed-bytes',
        severity: 'info',
        title: `"GC Reclaimed (MB)" ${gc.reclaimedBytes} is bytes: ${(gc.reclaimedBytes / 1024 ** 2).toFixed(1)} MiB`,
        evidence: [`input: nodetool gcstats GC Reclaimed (MB) column = ${gc.reclaimedBytes}`],
        recommendation: 'Read the column as bytes (nodetool mislabels it). Note also that every gcstats call resets the interval it reports.',
        knowledgeIds: ['trap.nodetool.gcstats-reclaimed-bytes', 'trap.nodetool.gcstats-resets-interval'],
        confidence: 'high',
      });
    }
  }
  const value = d.parsed.value as { release?: string; notes?: unknown };
  const cleaned = d.cleaned?.length ? d.cleaned : null;
  const notes = d.kind !== 'logs' && Array.isArray(value.notes) ? value.notes.filter((n): n is string => typeof n === 'string' && n.trim() !== '') : [];
  return {
    kind: d.kind,
    version: d.kind === 'nodetool.version' && typeof value.release === 'string' ? value.release : null,
    ok: true,
    summary: `${summariseParsed(d.kind, d.parsed.value)}${cleaned ? ` (read after stripping ${describeCleaning(cleaned)})` : ''}`,
    findings,
    checked,
    warnings: d.parsed.warnings,
    ...(notes.length ? { notes } : {}),
    ...(cleaned ? { cleaned: [...cleaned] } : {}),
  };
}
