/**
 * Configuration audit rules (PURE): a parsed cassandra.yaml and/or JVM options (jvm*.options,
 * cassandra-env.sh, a java command line) → findings. Host RAM, cores, the Cassandra version and the JDK are
 * optional context; a check that needs a missing one says so in its skip reason instead of guessing.
 */
import { allKeyChanges, keyStatus, newNames, renameOf, type KeyChange } from '../config/renames.js';
import type { Finding } from '../findings.js';
import { appliesTo, knowledge, numberOf, threshold, valueOf, versionInRange, type KnowledgeId } from '../knowledge/index.js';
import type { CassandraYaml } from '../parse/config/cassandra-yaml.js';
import type { JvmOptions } from '../parse/config/jvm-options.js';
import type { KindRuleOutcome, KindRules } from './per-kind.js';
import { fmtNum, grade, outcome, PACK, skipped } from './rule.js';

export interface ConfigContext {
  /** Cassandra version the file runs on (or is meant for), e.g. "4.1.10". Unknown: inferred from the naming where possible. */
  version?: string;
  /** Java major version (8, 11, 17 …). */
  jdk?: number;
  hostRamBytes?: number;
  cores?: number;
  /** Where the text came from, for evidence ("conf/cassandra.yaml", "pasted text"). */
  source?: string;
}

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;
const fmtGiB = (b: number) => `${fmtNum(b / GIB, 2)} GiB`;
const fmtMiB = (b: number) => `${fmtNum(b / MIB, 0)} MiB`;
// Sizes as people write them: whole GiB as GiB, other sizes under 16 GiB in MiB (1995 MiB, not 1.95 GiB).
const fmtSize = (b: number) => (b % GIB === 0 || b >= 16 * GIB ? fmtGiB(b) : fmtMiB(b));

const out = (rule: string, checks: string, findings: Finding[]): KindRuleOutcome => outcome(rule, findings, checks);
const skip = (rule: string, checks: string, because: string): KindRuleOutcome => skipped(rule, because, checks);

const isBareNumber = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && /^\s*-?\d+(?:\.\d+)?\s*$/.test(v));
const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

// Settings that first exist in 5.0 (a file holding one is meant for 5.0 or later).
const FIVE_O_KEYS = ['storage_compatibility_mode', 'default_compaction', 'dynamic_data_masking_enabled', 'sai_options'];

/** The version the yaml rules judge against: given, else what the file implies (5.0-only settings, 4.1 names). */
function effectiveVersion(y: CassandraYaml, ctx: ConfigContext): { version: string | undefined; inferred: boolean } {
  if (ctx.version) return { version: ctx.version, inferred: false };
  if (FIVE_O_KEYS.some((k) => k in y.settings)) return { version: '5.0', inferred: true };
  if (y.naming === '4.1+' || y.naming === 'mixed') return { version: '4.1', inferred: true };
  return { version: undefined, inferred: false };
}

const before = (version: string, since: string) => versionInRange(version, `<${since}`);

function describeRename(c: KeyChange): string {
  // Renames after 4.1 name their version, and a note says when the value itself changes (5.0 count thresholds).
  const since = c.since !== '4.1' ? ` (${c.since})` : '';
  const unit = c.oldUnit ? ` (a bare number meant ${c.oldUnit}; write the unit)` : '';
  return `${c.key} → ${c.replacement}${since}${unit}${c.note ? `; ${c.note}` : ''}`;
}

/** Naming era, old/new conflicts, values that need units, removed / deprecated / renamed keys. */
export function yamlKeyRules(y: CassandraYaml, ctx: ConfigContext = {}): KindRuleOutcome[] {
  const src = ctx.source ?? 'cassandra.yaml'; // double quotes: not a finding id for the catalogue lint
  const { version, inferred } = effectiveVersion(y, ctx);
  const vText = version
    ? inferred
      ? `${version}+ (inferred from ${version === '5.0' ? 'settings that exist from 5.0' : 'the 4.1 names'})`
      : version
    : 'unknown version';
  const keys = Object.keys(y.settings);
  const findings: Finding[] = [];

  // 1. The same setting under two names: the node refuses to start (4.1+), or does not know the new one (< 4.1).
  // On a known 4.1+ version only the renames of that version pair keys: on 4.1, table_count_warn_threshold and
  // tables_warn_threshold are two settings (5.0 merges them). Older or unknown versions: every rename counts.
  const pairVersion = version && !inferred && !before(version, '4.1') ? version : undefined;
  const conflicts: string[] = [];
  for (const k of keys) {
    const steps = pairVersion ? [renameOf(k, pairVersion)] : [renameOf(k, '4.1'), renameOf(k)];
    const targets = new Set(steps.map((c) => c?.replacement).filter((t): t is string => !!t && t !== k));
    for (const t of targets) if (t in y.settings) conflicts.push(`${src}: ${k}: ${show(y.settings[k])} and ${t}: ${show(y.settings[t])}`);
  }
  if (conflicts.length) {
    findings.push({
      id: 'config.yaml.old-and-new-key',
      severity: 'critical',
      title: `${conflicts.length} setting${conflicts.length > 1 ? 's' : ''} given under both the old and the new name`,
      evidence: conflicts.slice(0, 10),
      recommendation:
        'Cassandra 4.1+ stops at startup ("Config contains both old and new keys"). Keep only the new name with a unit (e.g. compaction_throughput: 64MiB/s) and delete the old line; on 3.x/4.0 delete the new name instead.',
      knowledgeIds: ['config.old-and-new-key', 'config.renames.cassandra-4.1'],
      confidence: 'high',
    });
  }

  // 2. New names with bare numbers (a unit is required under the 4.1 names).
  const targets = newNames();
  const unitless: string[] = [];
  for (const k of keys) {
    if (!targets.has(k) || !isBareNumber(y.settings[k])) continue;
    const row = findRenameTo(k);
    if (!row || row.change !== 'renamed' || !row.valueType || !['duration', 'data-storage', 'data-rate'].includes(row.valueType)) continue;
    unitless.push(`${src}: ${k}: ${show(y.settings[k])} — a ${row.valueType} needs a unit (old name ${row.key} meant ${row.oldUnit ?? 'a fixed unit'})`);
  }
  if (unitless.length) {
    findings.push({
      id: 'config.yaml.value-without-unit',
      severity: 'critical',
      title: `${unitless.length} value${unitless.length > 1 ? 's' : ''} without a unit under a 4.1+ name`,
      evidence: unitless.slice(0, 10),
      recommendation: 'Write the unit (5000ms, 16MiB, 64MiB/s) or use the old name with the bare number; the node refuses the bare value under the new name.',
      knowledgeIds: ['config.value-needs-unit'],
      confidence: 'medium',
    });
  }

  // 3. New names on a version that does not know them yet (refused as unknown keys).
  if (version && !inferred) {
    const newOnOld = keys
      .map((k) => ({ k, row: findRenameTo(k) }))
      .filter((x): x is { k: string; row: KeyChange } => x.row?.change === 'renamed' && before(version, nameKnownSince(x.k) ?? x.row.since));
    if (newOnOld.length) {
      findings.push({
        id: 'config.yaml.new-names-on-old-version',
        severity: 'critical',
        title: `${newOnOld.length} setting name${newOnOld.length > 1 ? 's' : ''} that ${version} does not know yet`,
        evidence: newOnOld.slice(0, 10).map(({ k, row }) => `${src}: ${k} (from ${nameKnownSince(k) ?? row.since}; on ${version}: ${row.key})`),
        recommendation: `Cassandra ${version} rejects keys it does not know; use the names of this version until the upgrade.`,
        knowledgeIds: ['config.unknown-key-refused', 'config.renames.cassandra-4.1'],
        confidence: 'high',
      });
    }
  }

  // 4. Removed, deprecated and renamed keys.
  const removed: string[] = [];
  const removedLater: string[] = [];
  const deprecated: string[] = [];
  const renamed: KeyChange[] = [];
  // The entries that state each removal (4.0 Thrift keys, 5.0 leftovers), cited by the findings.
  const removedKb = new Set<KnowledgeId>();
  const removedLaterKb = new Set<KnowledgeId>();
  for (const k of keys) {
    // Unknown version (an old-style file): judge it as current for its own era; later removals become upgrade notes.
    const st = keyStatus(k, version ?? '0.0');
    if (st.status === 'removed') {
      removed.push(
        `${src}: ${k} (removed in ${st.change.since}${st.change.replacement ? `; use ${st.change.replacement}` : ''}${st.change.note ? `; ${st.change.note}` : ''})`,
      );
      removedKb.add(st.change.knowledgeId);
    } else if (st.status === 'deprecated')
      deprecated.push(
        `${src}: ${k} (deprecated since ${st.change.since}${st.change.replacement ? `; use ${st.change.replacement}` : ''}${st.change.note ? `; ${st.change.note}` : ''})`,
      );
    else if (st.status === 'renamed') renamed.push(st.change);
    // A key that is current or only deprecated here may be removed by a later release (5.0 drops four 4.x keys).
    if (st.status === 'current' || st.status === 'deprecated') {
      const future = keyStatus(k);
      if (future.status === 'removed') {
        removedLater.push(`${src}: ${k} (removed in ${future.change.since})`);
        removedLaterKb.add(future.change.knowledgeId);
      }
    }
  }
  if (removed.length) {
    findings.push({
      id: 'config.yaml.removed-key',
      severity: 'critical',
      title: `${removed.length} setting${removed.length > 1 ? 's' : ''} that ${vText} no longer has`,
      evidence: removed.slice(0, 12),
      recommendation: 'Delete these lines: Cassandra refuses a cassandra.yaml with unknown properties ("Invalid yaml. Please remove properties …").',
      knowledgeIds: ['config.unknown-key-refused', ...removedKb],
      confidence: inferred ? 'medium' : 'high',
    });
  }
  if (removedLater.length) {
    findings.push({
      id: 'config.yaml.removed-on-upgrade',
      severity: 'info',
      title: `${removedLater.length} setting${removedLater.length > 1 ? 's' : ''} to delete before upgrading`,
      evidence: removedLater.slice(0, 12),
      recommendation: 'Fine on this version; an upgrade to the version named must remove them first or the node will not start.',
      knowledgeIds: [...removedLaterKb, 'config.unknown-key-refused'],
      confidence: version ? 'high' : 'medium',
    });
  }
  if (deprecated.length) {
    findings.push({
      id: 'config.yaml.deprecated-key',
      severity: 'info',
      title: `${deprecated.length} deprecated setting${deprecated.length > 1 ? 's' : ''}`,
      evidence: deprecated.slice(0, 12),
      recommendation: 'They are parsed but do nothing useful (or are going away); delete them, or move to the replacement named.',
      knowledgeIds: ['config.deprecated.cassandra'],
      confidence: 'high',
    });
  }

  // 5. Naming era: always reported, with the renames an old-style file needs on 4.1+.
  const oldNamed = keys.map((k) => renameOf(k)).filter((c): c is KeyChange => !!c && c.change === 'renamed');
  const eraTitle =
    y.naming === 'pre-4.1'
      ? `pre-4.1 setting names (${y.oldStyleKeys.length} keys with the unit in the name)`
      : y.naming === '4.1+'
        ? '4.1+ setting names (units in the values)'
        : y.naming === 'mixed'
          ? `mixed naming: ${y.oldStyleKeys.length} pre-4.1 and ${y.newStyleKeys.length} 4.1+ names in one file`
          : 'no renamed setting in the file (naming era not visible)';
  findings.push({
    id: 'config.yaml.naming',
    severity: 'info',
    title: `${eraTitle}; judged for ${vText}`,
    // Renames in effect on this version; for an older or unknown version, the renames an upgrade to 4.1+ brings.
    evidence: (renamed.length ? renamed : !version || before(version, '4.1') ? oldNamed : []).slice(0, 8).map((c) => `${src}: ${describeRename(c)}`),
    recommendation:
      y.naming === 'pre-4.1' || y.naming === 'mixed'
        ? '4.1 and 5.0 still accept the old names (deprecated); when moving to 4.1+, rename them with units in one go — never leave both spellings. system_views.settings lists both names (the old one in its old unit), so compare it by value, not by name.'
        : 'Nothing to do for the naming.',
    knowledgeIds: ['config.renames.cassandra-4.1', 'config.rename.units'],
    confidence: 'high',
  });

  if (y.duplicateKeys.length) {
    findings.push({
      id: 'config.yaml.duplicate-key',
      severity: 'warning',
      title: `${y.duplicateKeys.length} setting${y.duplicateKeys.length > 1 ? 's' : ''} written twice`,
      evidence: y.duplicateKeys.map((k) => `${src}: ${k} appears more than once; the last one wins (${show(y.settings[k])})`),
      recommendation: 'Keep one line per setting: the earlier value is silently ignored, which misleads whoever reads the file.',
      knowledgeIds: [],
      confidence: 'high',
    });
  }
  return [out('config.yaml-keys', 'cassandra.yaml naming era, old/new key conflicts, units, removed and deprecated keys', findings)];
}

/** new name → the rename rows that lead to it (last = newest). */
const RENAMED_TO = new Map<string, KeyChange[]>();
for (const c of allKeyChanges()) {
  if ((c.change === 'renamed' || c.change === 'unit') && c.replacement) RENAMED_TO.set(c.replacement, [...(RENAMED_TO.get(c.replacement) ?? []), c]);
}
function findRenameTo(newKey: string): KeyChange | undefined {
  return RENAMED_TO.get(newKey)?.at(-1);
}
/**
 * The first version that knows a name reached by a rename: the earliest row naming it as replacement, so a
 * 4.1 deprecation that points at tables_warn_threshold dates the name to 4.1 although the rename is 5.0.
 */
const KNOWN_SINCE = new Map<string, string>();
const RENAME_ROWS = allKeyChanges().filter((c) => c.change === 'renamed' || c.change === 'unit');
for (const c of allKeyChanges()) {
  if (!c.replacement) continue;
  // A deprecation counts only when the same key is later renamed to that replacement (deprecated, then merged).
  const renamedLater = RENAME_ROWS.some((r) => r.key === c.key && r.replacement === c.replacement);
  const dated = c.change === 'renamed' || c.change === 'unit' || (c.change === 'deprecated' && renamedLater);
  if (!dated) continue;
  const prev = KNOWN_SINCE.get(c.replacement);
  if (prev === undefined || before(c.since, prev)) KNOWN_SINCE.set(c.replacement, c.since);
}
function nameKnownSince(newKey: string): string | undefined {
  return KNOWN_SINCE.get(newKey);
}

/** Values that deviate from defaults in ways that cost latency or safety. */
export function yamlValueRules(y: CassandraYaml, ctx: ConfigContext = {}): KindRuleOutcome[] {
  const src = ctx.source ?? 'cassandra.yaml'; // double quotes: not a finding id for the catalogue lint
  const a = y.audit;
  const from = (f: keyof typeof y.auditSources) => y.auditSources[f] ?? f;
  const findings: Finding[] = [];

  const scylla = y.product === 'scylla';
  // ScyllaDB runs compaction under its own backlog controller and has no dynamic snitch; 256 tokens is its default.
  if (a.compactionThroughputMiBPerSec === 0 && !scylla) {
    findings.push({
      id: 'config.yaml.compaction-unthrottled',
      severity: 'warning',
      title: 'Compaction is unthrottled',
      evidence: [
        `${src}: ${from('compactionThroughputMiBPerSec')}: ${show(y.settings[from('compactionThroughputMiBPerSec')])} (0 = no cap; default ${numberOf('compaction.throughput.default')} MiB/s on 4.0+, ${numberOf('compaction.throughput.default-pre-4.0')} before)`,
      ],
      recommendation: `Cap it (e.g. ${numberOf('compaction.throughput.default')} MiB/s) so compaction cannot take all the disk bandwidth from reads; raise the cap only while pending compactions grow and the disks have headroom.`,
      knowledgeIds: ['config.compaction-throughput.unthrottled', 'compaction.throughput.default'],
      confidence: 'high',
    });
  }

  const timeouts: { field: 'readRequestTimeoutMs' | 'writeRequestTimeoutMs' | 'rangeRequestTimeoutMs' | 'counterWriteRequestTimeoutMs'; kb: KnowledgeId }[] = [
    { field: 'readRequestTimeoutMs', kb: 'config.read-request-timeout.default' },
    { field: 'writeRequestTimeoutMs', kb: 'config.write-request-timeout.default' },
    { field: 'rangeRequestTimeoutMs', kb: 'config.range-request-timeout.default' },
    { field: 'counterWriteRequestTimeoutMs', kb: 'config.counter-write-request-timeout.default' },
  ];
  const raised: string[] = [];
  const kbs: KnowledgeId[] = [];
  let worst: 'warning' | 'critical' | null = null;
  for (const t of timeouts) {
    const v = a[t.field];
    if (v === null) continue;
    // A default verified up to 5.0 says nothing about a later Cassandra (trunk ships 10 s writes, 1 s counter writes).
    if (!scylla && ctx.version && !appliesTo(knowledge(t.kb), 'cassandra', ctx.version)) continue;
    const def = numberOf(t.kb);
    const sev = grade(PACK, v / def, 'config.request-timeout.raised');
    if (!sev || sev === 'info') continue;
    worst = worst === 'critical' || sev === 'critical' ? 'critical' : 'warning';
    raised.push(`${src}: ${from(t.field)}: ${show(y.settings[from(t.field)])} = ${fmtNum(v / def)}× the default ${def} ms`);
    kbs.push(t.kb);
  }
  if (worst) {
    findings.push({
      id: 'config.yaml.request-timeout-raised',
      severity: worst,
      title: `Request timeouts raised far above their defaults (${raised.length})`,
      evidence: raised,
      recommendation:
        'Long coordinator timeouts hide overload: requests wait longer, clients retry on top, and memory fills with in-flight work. Find what is slow (large partitions, tombstones, GC pauses, saturated disks), bring the timeouts back near the defaults and set client timeouts just above them.',
      knowledgeIds: ['config.request-timeout.raised', ...kbs],
      confidence: 'high',
    });
  }

  if (a.dynamicSnitch === false && !scylla) {
    findings.push({
      id: 'config.yaml.dynamic-snitch-off',
      severity: 'warning',
      title: 'Dynamic snitch is off',
      evidence: [
        `${src}: dynamic_snitch: ${show(y.settings['dynamic_snitch'])} (default ${String(valueOf('config.dynamic-snitch.default'))})${a.endpointSnitch ? `; endpoint_snitch: ${a.endpointSnitch}` : ''}`,
      ],
      recommendation: 'Re-enable it so reads avoid a replica that is slow (GC, compaction, a bad disk); leave it off only for a measured reason.',
      knowledgeIds: ['config.dynamic-snitch.default'],
      confidence: 'high',
    });
  }

  if (a.numTokens !== null && a.numTokens >= numberOf('config.num-tokens.default-pre-4.0') && !scylla) {
    findings.push({
      id: 'config.yaml.num-tokens-legacy',
      severity: 'info',
      title: `num_tokens ${a.numTokens}: the pre-4.0 vnode count`,
      evidence: [
        `${src}: num_tokens: ${a.numTokens} (default ${numberOf('config.num-tokens.default')} from 4.0 with allocate_tokens_for_local_replication_factor)`,
      ],
      recommendation:
        'Existing nodes must keep their token count; new clusters or new datacenters should use 16 tokens with the token allocator (fewer vnodes = faster repairs and streaming, better availability).',
      knowledgeIds: ['config.num-tokens.default', 'config.num-tokens.default-pre-4.0'],
      confidence: 'high',
    });
  }
  if (a.partitioner && /RandomPartitioner$/.test(a.partitioner)) {
    findings.push({
      id: 'config.yaml.random-partitioner',
      severity: 'info',
      title: 'Legacy RandomPartitioner',
      evidence: [`${src}: partitioner: ${a.partitioner}`],
      recommendation: 'Cannot be changed in place; a migration to a new cluster (or to ScyllaDB) must reload the data with Murmur3Partitioner.',
      knowledgeIds: ['config.partitioner.random'],
      confidence: 'high',
    });
  }

  if (ctx.cores && !scylla) {
    const perCore = numberOf('config.concurrent-writes.per-core');
    const suggested = perCore * ctx.cores;
    if (a.concurrentWrites !== null && (a.concurrentWrites > 2 * suggested || a.concurrentWrites * 2 < suggested)) {
      findings.push({
        id: 'config.yaml.concurrent-writes',
        severity: 'info',
        title: `concurrent_writes ${a.concurrentWrites} vs about ${suggested} for ${ctx.cores} cores`,
        evidence: [`${src}: concurrent_writes: ${a.concurrentWrites}; ${perCore} per core × ${ctx.cores} cores = ${suggested}`],
        recommendation:
          'Move it toward 8 per core unless load tests showed otherwise; far more threads only add context switches, far fewer cap write throughput.',
        knowledgeIds: ['config.concurrent-writes.per-core'],
        confidence: 'medium',
      });
    }
    if (a.concurrentCompactors !== null && a.concurrentCompactors > ctx.cores) {
      findings.push({
        id: 'config.yaml.concurrent-compactors',
        severity: 'warning',
        title: `${a.concurrentCompactors} concurrent compactors on ${ctx.cores} cores`,
        evidence: [`${src}: concurrent_compactors: ${a.concurrentCompactors}; host cores: ${ctx.cores}`],
        recommendation: `Keep compactors at or below the core count (the automatic value is min(disks, cores), 2..${numberOf('config.concurrent-compactors.max-cores')}).`,
        knowledgeIds: ['config.concurrent-compactors.max-cores'],
        confidence: 'high',
      });
    }
  }
  const outcomes = [out('config.yaml-values', 'cassandra.yaml compaction throttle, request timeouts, dynamic snitch, vnodes, partitioner', findings)];
  if (!ctx.cores && !scylla)
    outcomes.push(skip('config.yaml-threads', 'concurrent_writes / concurrent_compactors against the core count', 'host cores not given'));
  return outcomes;
}

// Removed by JEP 271 in JDK 9 (kb:config.jvm.jdk8-gc-log-flags-removed).
const JDK8_ONLY_GC_LOG_FLAGS = new Set([
  'PrintGCDateStamps',
  'PrintGCTimeStamps',
  'PrintGCApplicationStoppedTime',
  'PrintHeapAtGC',
  'PrintTenuringDistribution',
  'UseGCLogFileRotation',
  'NumberOfGCLogFiles',
  'GCLogFileSize',
]);

/** Heap size, GC choice by JDK, pause target, pre-touch, large pages, NUMA, JDK 8 flags on newer JDKs. */
export function jvmRules(j: JvmOptions, ctx: ConfigContext = {}): KindRuleOutcome[] {
  const src = ctx.source ?? 'jvm options';
  const findings: Finding[] = [];
  const h = j.heap;
  const xmx = h.xmxBytes;

  // Lines the start script skips: whatever they were meant to set is not in effect.
  if (j.strayLines.length > 0) {
    const n = j.strayLines.length;
    findings.push({
      id: 'config.jvm.stray-line',
      severity: 'warning',
      title: `${n} line${n === 1 ? '' : 's'} of the options file ${n === 1 ? 'is' : 'are'} not a JVM option: the start script skips ${n === 1 ? 'it' : 'them'}`,
      evidence: j.strayLines
        .slice(0, 8)
        .map((l) => `${src} line ${l.line}: ${JSON.stringify(l.text)}${/^\d/.test(l.text) ? ' (a bare value)' : ' (a flag without its leading "-")'}`),
      recommendation:
        'Cassandra reads only the lines of jvm*.options that start with "-", so these set nothing. Write each as the flag it was meant to be (e.g. -XX:CMSInitiatingOccupancyFraction=75, -Xmx8G) or delete it; when a chart or template wrote the file, check the key its values sit under.',
      knowledgeIds: ['config.jvm.options-file-lines'],
      confidence: 'high',
    });
  }

  // Heap pinned or not. A few option lines pasted without the file's comments are a fragment: the heap may be set
  // in the part not shown (or in another of the jvm*.options files), so its absence says nothing.
  const fragment = j.format === 'options-file' && j.commentLines === 0 && j.flags.length < 5;
  if (xmx === null) {
    const commented = h.xmxCommented ?? h.xmsCommented;
    const ram = ctx.hostRamBytes;
    const auto = ram ? Math.max(Math.min(ram / 2, 1024 * MIB), Math.min(ram / 4, 8192 * MIB)) : null;
    if (!fragment)
      findings.push({
        id: 'config.jvm.heap-unset',
        severity: 'warning',
        title: 'Heap size not set: the start script sizes it from RAM',
        evidence: [
          `${src}: no active -Xmx/-Xms${commented ? ` (commented out: -Xmx${commented})` : ''}${j.format === 'env-sh' ? ' and no MAX_HEAP_SIZE' : ''}`,
          auto
            ? `auto-sizing on ${fmtGiB(ram!)} RAM: ${fmtSize(auto)} (max(min(½ RAM, 1 GiB), min(¼ RAM, 8 GiB)))`
            : 'auto-sizing: ¼ of RAM capped at 8 GiB (host RAM not given)',
        ],
        recommendation:
          'Pin the heap: -Xms equal to -Xmx (e.g. 8 GiB for CMS, 16–31 GiB for G1 on hosts with 64 GiB or more), so the heap does not change with the machine and is not silently small.',
        knowledgeIds: ['jvm.heap.default-size', 'config.jvm.xms-equals-xmx'],
        confidence: 'high',
      });
  } else {
    const gib = xmx / GIB;
    const small = grade(PACK, gib, 'config.jvm.heap-small');
    if (small) {
      // cassandra-env.sh picks ¼ of RAM below 32 GiB of RAM: say which host that heap would come from.
      const hint = xmx > 1024 * MIB && xmx < 8192 * MIB ? ` — what cassandra-env.sh picks on a host with about ${fmtGiB(4 * xmx)} RAM (¼ of RAM)` : '';
      const young = h.xmnBytes ? `; young generation -Xmn ${fmtMiB(h.xmnBytes)}` : '';
      findings.push({
        id: 'config.jvm.heap-small',
        severity: small,
        title: `Heap of ${fmtSize(xmx)}: too small for production`,
        evidence: [`${src}: -Xmx ${fmtSize(xmx)}${young}${hint}`],
        recommendation:
          'Fine for a test node; for production give the node 8+ GiB of RAM and set MAX_HEAP_SIZE / -Xmx explicitly (8 GiB with CMS and HEAP_NEWSIZE ≈ 100 MiB per core, or 16–31 GiB with G1 on large hosts).',
        knowledgeIds: ['config.jvm.heap-small', 'jvm.heap.default-size'],
        confidence: 'high',
      });
    }
    const oops = numberOf('jvm.heap.compressed-oops');
    const dead = numberOf('config.jvm.heap-oops-dead-zone');
    if (gib >= 32 && gib < dead) {
      findings.push({
        id: 'config.jvm.heap-oops-dead-zone',
        severity: 'warning',
        title: `Heap of ${fmtGiB(xmx)}: compressed oops are off`,
        evidence: [`${src}: -Xmx ${fmtGiB(xmx)} (≥ 32 GiB disables compressed object pointers; below ≈ ${dead} GiB it holds less than ${oops} GiB did)`],
        recommendation: `Use ${oops} GiB (or less): the same data fits in less memory and GC has less to scan.`,
        knowledgeIds: ['config.jvm.heap-oops-dead-zone', 'jvm.heap.compressed-oops'],
        confidence: 'high',
      });
    } else if (gib >= dead) {
      findings.push({
        id: 'config.jvm.heap-oops-dead-zone',
        severity: 'info',
        title: `Heap of ${fmtGiB(xmx)}: above the compressed-oops limit`,
        evidence: [`${src}: -Xmx ${fmtGiB(xmx)} (object pointers are 8 bytes above 32 GiB)`],
        recommendation: `Make sure this is deliberate: most Cassandra workloads do better at ${oops} GiB with the rest of RAM left to the page cache.`,
        knowledgeIds: ['config.jvm.heap-oops-dead-zone', 'jvm.heap.compressed-oops'],
        confidence: 'medium',
      });
    }
    if (h.xmsBytes !== null && h.xmsBytes !== xmx) {
      findings.push({
        id: 'config.jvm.xms-ne-xmx',
        severity: 'warning',
        title: 'Initial heap differs from the maximum',
        evidence: [`${src}: -Xms ${fmtSize(h.xmsBytes)} vs -Xmx ${fmtSize(xmx)}`],
        recommendation: 'Set -Xms equal to -Xmx so the heap does not resize under load.',
        knowledgeIds: ['config.jvm.xms-equals-xmx'],
        confidence: 'high',
      });
    }
  }

  if (xmx !== null && ctx.hostRamBytes) {
    const ratio = xmx / ctx.hostRamBytes;
    const sev = grade(PACK, ratio, 'config.jvm.heap-ram-ratio');
    if (sev) {
      findings.push({
        id: 'config.jvm.heap-ram-ratio',
        severity: sev,
        title: `Heap is ${fmtNum(100 * ratio, 0)} % of RAM`,
        evidence: [`${src}: -Xmx ${fmtSize(xmx)} on a host with ${fmtGiB(ctx.hostRamBytes)} RAM`],
        recommendation: 'Leave at least half of RAM outside the heap for off-heap structures and the page cache; lower -Xmx.',
        knowledgeIds: ['config.jvm.heap-ram-ratio'],
        confidence: 'high',
      });
    }
  }

  // Collector.
  const gc = j.gc;
  const oldGen = [...new Set(gc.selected.filter((c) => c !== 'ParNew'))];
  if (oldGen.length > 1) {
    findings.push({
      id: 'config.jvm.gc-conflict',
      severity: 'critical',
      title: `Conflicting collectors selected: ${oldGen.join(', ')}`,
      evidence: [
        `${src}: ${j.flags
          .filter((f) => f.type === 'XX' && /^Use\w+GC$/.test(f.name) && f.enabled)
          .map((f) => `${f.raw} (line ${f.line})`)
          .join(', ')}`,
      ],
      recommendation: 'The JVM refuses to start with more than one collector: keep one (G1 for most heaps) and remove the other section.',
      knowledgeIds: ['jvm.gc.g1-default'],
      confidence: 'high',
    });
  }
  // CMS: JDK 14 ignores the flags and runs G1; from JDK 15 they are unknown options and the JVM does not start.
  const cms = threshold('config.jvm.cms-removed');
  const cmsIgnoredFrom = cms.warning ?? 14;
  const cmsRefusedFrom = cms.critical ?? 15;
  // Any CMS option, + or -, is unknown from JDK 15: "-XX:-CMSClassUnloadingEnabled" fails as well.
  const cmsFlags = j.flags.filter((f) => f.type === 'XX' && (f.name === 'UseConcMarkSweepGC' || /^(?:CMS|UseCMS)/.test(f.name)));
  const jdkSev = grade(PACK, ctx.jdk, 'config.jvm.cms-removed');
  const on50 = ctx.version !== undefined && versionInRange(ctx.version, '>=5.0');
  // Leftover CMS tuning next to another collector only matters where the flags are gone.
  if (gc.collector === 'CMS' || (cmsFlags.length && (jdkSev !== null || on50))) {
    // -XX:+IgnoreUnrecognizedVMOptions turns the startup failure back into silently ignored flags.
    const ignoreUnknown = j.flags.some((f) => f.type === 'XX' && f.name === 'IgnoreUnrecognizedVMOptions' && f.enabled === true);
    const refused = jdkSev === 'critical' && !ignoreUnknown;
    const gone = jdkSev !== null;
    const flagList = cmsFlags
      .slice(0, 6)
      .map((f) => `${f.raw} (line ${f.line})`)
      .join(', ');
    const cmsSummary = [
      gc.selected.join('+'),
      ...(gc.cmsInitiatingOccupancyFraction !== null ? [`CMSInitiatingOccupancyFraction=${gc.cmsInitiatingOccupancyFraction}`] : []),
      ...(gc.maxTenuringThreshold !== null ? [`MaxTenuringThreshold=${gc.maxTenuringThreshold}`] : []),
      ...(xmx !== null ? [`heap ${fmtSize(xmx)}`] : []),
    ].join(', ');
    findings.push({
      id: 'config.jvm.cms',
      severity: refused ? 'critical' : gone || on50 ? 'warning' : 'info',
      title: refused
        ? `CMS flags on JDK ${ctx.jdk}: the JVM refuses to start (unrecognized VM option)`
        : gone
          ? gc.collector === 'CMS'
            ? `CMS selected on JDK ${ctx.jdk}, where it no longer exists`
            : `CMS flags on JDK ${ctx.jdk} are ignored`
          : gc.collector === 'CMS'
            ? 'CMS collector (ParNew/CMS)'
            : 'Leftover CMS flags',
      evidence: [
        gc.collector === 'CMS' ? `${src}: ${cmsSummary}` : `${src}: ${flagList} with ${gc.collector ?? 'the default collector'}`,
        ctx.jdk !== undefined ? `JDK ${ctx.jdk}${ignoreUnknown ? ' with -XX:+IgnoreUnrecognizedVMOptions' : ''}` : 'JDK not given',
      ],
      recommendation: refused
        ? `From JDK ${cmsRefusedFrom} every CMS flag is an unrecognized VM option and the node does not start: ` +
          'delete the CMS section (and any CMS* flag) and use G1 before starting this node.'
        : gone
          ? `JDK ${cmsIgnoredFrom}+ ignores the CMS flags${ignoreUnknown ? ' (here because of -XX:+IgnoreUnrecognizedVMOptions)' : ''} ` +
            'and runs G1 with none of this tuning: replace the CMS section with a G1 one.'
          : on50
            ? `Cassandra 5.0 ships G1; on JDK 17 these flags stop the JVM at startup (unrecognized from JDK ${cmsRefusedFrom}): ` +
              'move to G1 before or with the upgrade.'
            : `CMS works on JDK 8/11 with heaps up to about 8 GiB but was removed in JDK ${cmsIgnoredFrom} and the flags stop the JVM ` +
              `from JDK ${cmsRefusedFrom}; plan a move to G1, and size the heap explicitly when you do.`,
      knowledgeIds: ['config.jvm.cms-removed', 'jvm.gc.g1-default'],
      confidence: 'high',
    });
  }
  if (gc.collector === 'ZGC' && ctx.jdk !== undefined && ctx.jdk < numberOf('config.jvm.zgc-production')) {
    findings.push({
      id: 'config.jvm.zgc-experimental',
      severity: 'warning',
      title: `ZGC on JDK ${ctx.jdk} is experimental`,
      evidence: [`${src}: -XX:+UseZGC, JDK ${ctx.jdk}`],
      recommendation: `Use G1 on this JDK; ZGC is a production option from JDK ${numberOf('config.jvm.zgc-production')} (Cassandra 5.0 on JDK 17).`,
      knowledgeIds: ['config.jvm.zgc-production'],
      confidence: 'high',
    });
  }
  const g1 = gc.collector === 'G1' || (gc.collector === null && (ctx.jdk ?? 0) >= 9);
  if (g1 && gc.maxGCPauseMillis !== null) {
    const sev = grade(PACK, gc.maxGCPauseMillis, 'config.jvm.max-gc-pause-millis');
    if (sev) {
      findings.push({
        id: 'config.jvm.g1-pause-target',
        severity: sev,
        title: `G1 pause target ${gc.maxGCPauseMillis} ms is lax`,
        evidence: [`${src}: -XX:MaxGCPauseMillis=${gc.maxGCPauseMillis} (JVM default 200 ms; Cassandra 5.0 ships 300 ms)`],
        recommendation: 'Aim G1 at 200–300 ms: a 500 ms target lets young pauses grow toward half a second, which shows up directly in read and write p99.',
        knowledgeIds: ['config.jvm.max-gc-pause-millis', 'jvm.gc.pause'],
        confidence: 'high',
      });
    }
  }
  // cassandra-env.sh applies HEAP_NEWSIZE only when G1 is off, so only an explicit -Xmn/NewSize counts here.
  const explicitYoung = j.flags.filter((f) => (f.type === 'X' && f.name === 'Xmn') || (f.type === 'XX' && (f.name === 'NewSize' || f.name === 'MaxNewSize')));
  if (g1 && explicitYoung.length) {
    // From 4.0 the stock cassandra-env.sh exits 1 when JVM_OPTS holds "Xmn" and "+UseG1GC" (kb:config.jvm.g1-no-xmn);
    // NewSize, a JDK-default G1 and a running node's command line get past it and only cost pause control.
    const xmn = explicitYoung.some((f) => f.type === 'X' && f.name === 'Xmn');
    const scriptRefuses = ctx.version === undefined || !before(ctx.version, '4.0');
    const stops = xmn && gc.selected.includes('G1') && scriptRefuses && j.format !== 'command-line';
    findings.push({
      id: 'config.jvm.g1-xmn',
      severity: stops ? 'critical' : 'warning',
      title: stops ? `-Xmn with G1: cassandra-env.sh${ctx.version ? '' : ' (Cassandra 4.0+)'} refuses to start the node` : 'G1 with a fixed young generation',
      evidence: [
        `${src}: ${explicitYoung.map((f) => f.raw).join(' ')} with G1`,
        ...(stops ? ['cassandra-env.sh: "It is not recommended to set -Xmn with the G1 garbage collector" then exit 1'] : []),
      ],
      recommendation: stops
        ? 'Delete -Xmn before starting the node: the stock start script stops on -Xmn with -XX:+UseG1GC, and G1 sizes its young generation itself.'
        : 'Remove -Xmn / NewSize with G1: a fixed young size stops G1 from meeting its pause target.',
      knowledgeIds: ['config.jvm.g1-no-xmn'],
      confidence: stops && ctx.version === undefined ? 'medium' : 'high',
    });
  }

  // JDK 8 logging flags on a JDK that rejects them (the JDK given, or at least 11 for Cassandra 5.0).
  const minJdk = ctx.jdk ?? (ctx.version && versionInRange(ctx.version, '>=5.0') ? numberOf('config.jvm.cassandra-5.0-jdk') : undefined);
  const rejectedFrom = numberOf('config.jvm.jdk8-gc-log-flags-removed');
  if (minJdk !== undefined && minJdk >= rejectedFrom) {
    const removed = j.flags.filter((f) => f.type === 'XX' && JDK8_ONLY_GC_LOG_FLAGS.has(f.name));
    if (removed.length) {
      const ignored = j.flags.some((f) => f.type === 'XX' && f.name === 'IgnoreUnrecognizedVMOptions' && f.enabled);
      const jdkText = ctx.jdk !== undefined ? `JDK ${ctx.jdk}` : `Cassandra ${ctx.version} (JDK ${minJdk}+)`;
      findings.push({
        id: 'config.jvm.jdk8-flags',
        severity: ignored ? 'warning' : 'critical',
        title: ignored ? `JDK 8 GC-logging flags silently ignored on ${jdkText}` : `JDK 8 GC-logging flags stop the JVM on ${jdkText}`,
        evidence: [`${src}: ${removed.map((f) => `${f.raw} (line ${f.line})`).join(', ')}${ignored ? '; -XX:+IgnoreUnrecognizedVMOptions is set' : ''}`],
        recommendation:
          'Replace them with unified logging, e.g. -Xlog:gc*,safepoint:file=/var/log/cassandra/gc.log:time,uptime:filecount=10,filesize=10M (Cassandra ships this in jvm11-server.options / jvm17-server.options).',
        knowledgeIds: ['config.jvm.jdk8-gc-log-flags-removed', ...(ctx.jdk === undefined ? (['config.jvm.cassandra-5.0-jdk'] satisfies KnowledgeId[]) : [])],
        confidence: 'high',
      });
    }
  }

  // Memory mapping details.
  const notes: string[] = [];
  if (xmx !== null && j.alwaysPreTouch !== true && j.format !== 'command-line')
    notes.push(`${src}: no -XX:+AlwaysPreTouch (the heap is committed page by page under load)`);
  if (j.useLargePages === true)
    notes.push(`${src}: -XX:+UseLargePages — needs hugepages reserved in the OS (vm.nr_hugepages), else the JVM falls back to normal pages with a warning`);
  if (j.useTransparentHugePages === true) notes.push(`${src}: -XX:+UseTransparentHugePages — THP in madvise mode for the heap only`);
  if (notes.length) {
    findings.push({
      id: 'config.jvm.memory-pages',
      severity: 'info',
      title: 'Heap page settings to check',
      evidence: notes,
      recommendation: 'Turn on AlwaysPreTouch with a pinned heap; use large pages only with hugepages reserved and verified at startup.',
      knowledgeIds: ['config.jvm.always-pre-touch'],
      confidence: 'medium',
    });
  }
  if (j.useNUMA === true) {
    const g1Old = g1 && ctx.jdk !== undefined && ctx.jdk < 14;
    findings.push({
      id: 'config.jvm.numa',
      severity: 'info',
      title: g1Old ? `-XX:+UseNUMA does nothing for G1 on JDK ${ctx.jdk}` : 'NUMA-aware allocation is on',
      evidence: [`${src}: -XX:+UseNUMA with ${gc.collector ?? 'the default collector'}${ctx.jdk !== undefined ? ` on JDK ${ctx.jdk}` : ''}`],
      recommendation: g1Old
        ? 'G1 honours UseNUMA from JDK 14; on this JDK rely on numactl --interleave (bin/cassandra does it when numactl is installed).'
        : 'Useful on multi-socket hosts; check zone_reclaim_mode is 0 as well.',
      knowledgeIds: ['config.jvm.numa'],
      confidence: 'medium',
    });
  }

  const outcomes = [
    out('config.jvm', 'JVM heap size and pinning, compressed oops, collector vs JDK, G1 pause target and young sizing, pre-touch, large pages, NUMA', findings),
  ];
  if (!ctx.hostRamBytes) outcomes.push(skip('config.jvm-ram', 'heap vs host RAM', 'host RAM not given'));
  if (ctx.jdk === undefined) outcomes.push(skip('config.jvm-jdk', 'collector availability by JDK version', 'JDK version not given'));
  return outcomes;
}

// Cassandra tuning keys ScyllaDB parses but ignores (db/config.cc: value_status Invalid / Unused).
const SCYLLA_IGNORED = [
  'concurrent_reads',
  'concurrent_writes',
  'concurrent_compactors',
  'concurrent_counter_writes',
  'memtable_allocation_type',
  'memtable_flush_writers',
  'memtable_cleanup_threshold',
  'memtable_heap_space_in_mb',
  'memtable_offheap_space_in_mb',
  'file_cache_size_in_mb',
  'sstable_preemptive_open_interval_in_mb',
  // Streaming caps: ScyllaDB throttles streaming with stream_io_throughput_mb_per_sec (kb:streaming.scylla.stream-io-throughput).
  'stream_throughput_outbound_megabits_per_sec',
  'inter_dc_stream_throughput_outbound_megabits_per_sec',
];

/** scylla.yaml: developer mode and Cassandra keys that do nothing on ScyllaDB (Cassandra's rename/removal rules do not apply). */
export function scyllaYamlRules(y: CassandraYaml, ctx: ConfigContext = {}): KindRuleOutcome[] {
  const src = ctx.source ?? 'scylla.yaml';
  const findings: Finding[] = [];
  const dev = y.settings['developer_mode'];
  if (dev === true || (typeof dev === 'string' && /^(?:true|1|yes)$/i.test(dev))) {
    findings.push({
      id: 'config.scylla.developer-mode',
      severity: 'critical',
      title: 'ScyllaDB runs in developer mode',
      evidence: [`${src}: developer_mode: ${show(dev)}`],
      recommendation:
        'Turn developer mode off on production nodes and run scylla_setup (scylla_io_setup) so the node starts with measured I/O properties and its production checks.',
      knowledgeIds: ['config.scylla.developer-mode'],
      confidence: 'high',
    });
  }
  const ignored = SCYLLA_IGNORED.filter((k) => k in y.settings);
  const streamCap = ignored.some((k) => k.includes('stream_throughput'));
  if (ignored.length) {
    findings.push({
      id: 'config.scylla.ignored-keys',
      severity: 'info',
      title: `${ignored.length} Cassandra tuning key${ignored.length > 1 ? 's' : ''} that ScyllaDB ignores`,
      evidence: ignored.map((k) => `${src}: ${k}: ${show(y.settings[k])}`),
      recommendation:
        'Remove them: ScyllaDB sizes concurrency, memtables and caches per shard by itself, so these values do nothing and mislead readers of the file' +
        (streamCap ? '; to cap streaming set stream_io_throughput_mb_per_sec (MiB/s for the whole node).' : '.'),
      knowledgeIds: ['config.scylla.ignored-cassandra-keys', ...(streamCap ? (['streaming.scylla.stream-io-throughput'] satisfies KnowledgeId[]) : [])],
      confidence: 'high',
    });
  }
  return [out('config.scylla-yaml', 'scylla.yaml developer mode and Cassandra-only keys', findings), ...yamlValueRules(y, { ...ctx, source: src })];
}

/** cassandra.yaml: key rules then value rules (a scylla.yaml goes to the ScyllaDB rules). */
export function cassandraYamlRules(y: CassandraYaml, ctx: ConfigContext = {}): KindRuleOutcome[] {
  if (y.product === 'scylla') return scyllaYamlRules(y, ctx);
  return [...yamlKeyRules(y, ctx), ...yamlValueRules(y, ctx)];
}

/** interpret: a detected config.* text runs these (no host context: RAM/cores/JDK checks say they were skipped). */
export const CONFIG_KIND_RULES: KindRules = {
  run(kind, value) {
    if (kind === 'config.cassandra-yaml') {
      const y = value as CassandraYaml;
      return cassandraYamlRules(y, { source: y.product === 'scylla' ? 'pasted scylla.yaml' : 'pasted cassandra.yaml' });
    }
    if (kind === 'config.jvm-options') return jvmRules(value as JvmOptions, { source: 'pasted JVM options' });
    return [];
  },
};
