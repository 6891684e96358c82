import { nodeEvidence } from '../core/diagnosis/evidence.js';
import { detect, SUPPORTED_KINDS } from '../core/detect.js';
import { nodeFactsFromRaw } from '../core/facts/from-raw.js';
import type { Finding } from '../core/findings.js';
import { runRules, type RulesResult } from '../core/rules/index.js';
import { summariseParsed } from '../render/interpret.js';

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

/** Any pasted output: detect its kind, parse it, run the rules on what it holds. */
export function interpretText(text: string): InterpretReport {
  const d = detect(text);
  if (!d.ok) {
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
  if (name) {
    const r = nodeFactsFromRaw([{ name, text }]);
    const result = runRules({ origin: `pasted ${d.kind}`, nodes: [nodeEvidence('input', true, r)] });
    findings = result.findings;
    checked = result.outcomes;
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
