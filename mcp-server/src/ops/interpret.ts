import { nodeEvidence } from '../core/diagnosis/evidence.js';
import { detect, SUPPORTED_KINDS } from '../core/detect.js';
import { nodeFactsFromRaw } from '../core/facts/from-raw.js';
import type { Finding } from '../core/findings.js';
import type { LogFacts } from '../core/parse/logs/types.js';
import { runRules, type RulesResult } from '../core/rules/index.js';
import { kindRulesFor } from '../core/rules/per-kind.js';
import { worstFirst } from '../core/findings.js';
import { summariseParsed } from '../render/interpret.js';
import { classifyNodetoolFailure } from '../core/nodetool-errors.js';
import { parseOffThread } from './off-thread.js';

/** Known nodetool error texts that mean something specific (each is a trap with a knowledge entry). */
const ERROR_TRAPS: { code: string; knowledgeId: string }[] = [
  { code: 'NO_METRIC_YET', knowledgeId: 'trap.nodetool.proxyhistograms-idle-node' },
  { code: 'NODE_STARTING', knowledgeId: 'trap.nodetool.server-not-initialized' },
];

/** A pasted nodetool failure is still evidence: say what it means instead of "not recognised". */
function explainPastedError(text: string): InterpretReport | null {
  if (!/Exception|error:|Error:|Failed to connect/i.test(text.slice(0, 20_000))) return null;
  if (/Use the -d flag/.test(text)) {
    return errorReport('nodetool.error', 'getstreamthroughput refused to print a cap that is not a whole number of megabits/s', {
      id: 'trap.nodetool.getstreamthroughput-d-flag',
      severity: 'info',
      title: 'getstreamthroughput needs -d on 4.1+ for this cap',
      evidence: [text.split('\n').find((l) => /-d flag/.test(l))?.trim().slice(0, 200) ?? ''],
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
    evidence: [text.split('\n').find((l) => /Exception|error|Failed/i.test(l))?.trim().slice(0, 300) ?? ''],
    recommendation: c.fix,
    knowledgeIds: trap ? [trap.knowledgeId] : [],
    confidence: 'high',
  });
}

function errorReport(kind: string, summary: string, finding: Finding): InterpretReport {
  return { kind, version: null, ok: true, summary, findings: [finding], checked: [], warnings: [] };
}

export interface InterpretReport {
  kind: string | null;
  /** Release version when the text says it (nodetool version, gossip), else null. */
  version: string | null;
  ok: boolean;
  summary: string;
  findings: Finding[];
  checked: RulesResult['outcomes'];
  supported?: string[];
  warnings: string[];
}

/**
 * interpretText for untrusted text in a server: a large text is parsed in a worker thread with a deadline
 * (ops/off-thread.ts), so it blocks no other call; PARSE_TIMEOUT / CANCELLED when it runs past it.
 */
export function interpretOffThread(text: string, opts: { signal?: AbortSignal | undefined; deadlineMs?: number } = {}): Promise<InterpretReport> {
  return parseOffThread('interpret', text, { what: 'the pasted text', chars: text.length, ...opts });
}

/** Any pasted output: detect its kind, parse it, run the rules on what it holds. */
export function interpretText(text: string): InterpretReport {
  const d = detect(text);
  if (!d.ok) {
    const failure = explainPastedError(text);
    if (failure) return failure;
    return {
      kind: null,
      version: null,
      ok: false,
      summary: `Not recognised: ${d.reason}.${d.tried.length ? ` (${d.tried.map((t) => `${t.kind}: ${t.reason}`).join('; ')})` : ''}`,
      findings: [],
      checked: [],
      supported: SUPPORTED_KINDS,
      warnings: [],
    };
  }
  const name = d.kind.startsWith('nodetool.') ? `nodetool:${d.kind.slice('nodetool.'.length)}` : null;
  let findings: Finding[] = [];
  let checked: RulesResult['outcomes'] = [];
  if (d.kind === 'logs') {
    const logs = d.parsed.value as LogFacts;
    const result = runRules({ origin: 'pasted log', nodes: [{ ...nodeEvidence('input', true, { facts: {}, nodetool: {} }), logs }] });
    findings = result.findings;
    checked = result.outcomes.filter((o) => o.rule === 'logs' || o.rule === 'traps');
  } else if (kindRulesFor(d.kind)) {
    const outcomes = kindRulesFor(d.kind)!.run(d.kind, d.parsed.value);
    findings = worstFirst(outcomes.flatMap((o) => o.findings));
    checked = outcomes.map((o) => ({ rule: o.rule, checks: o.checks, checked: o.checked, ...(o.skippedBecause ? { skippedBecause: o.skippedBecause } : {}), findings: o.findings.length }));
  } else if (name) {
    const r = nodeFactsFromRaw([{ name, text }]);
    const result = runRules({ origin: `pasted ${d.kind}`, nodes: [nodeEvidence('input', true, r)] });
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
  const value = d.parsed.value as { release?: string };
  return {
    kind: d.kind,
    version: d.kind === 'nodetool.version' && typeof value.release === 'string' ? value.release : null,
    ok: true,
    summary: summariseParsed(d.kind, d.parsed.value),
    findings,
    checked,
    warnings: d.parsed.warnings,
  };
}
