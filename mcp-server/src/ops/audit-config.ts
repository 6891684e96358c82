/**
 * audit_config: read cassandra.yaml / JVM options (files or inline text) and run the config rules, with the
 * host's RAM and cores, the Cassandra version and the JDK when given. Read-only; files are read with a size
 * limit and never executed. Optionally compares the yaml with system_views.settings of a snapshot (drift).
 */
import { readdir } from 'node:fs/promises';
import { checkedRow } from '../core/rules/rule.js';
import { z } from 'zod';
import { basename, join } from 'node:path';
import { namedDirectory, readNamedFile } from '../collect/safe-file.js';
import { configDrift, type DriftReport } from '../core/config/drift.js';
import { severityCounts, worstFirst } from '../core/findings.js';
import { parseCassandraYaml, parseJvmOptions, type CassandraYaml, type JvmOptions } from '../core/parse/config/index.js';
import { cassandraYamlRules, jvmRules, type ConfigContext } from '../core/rules/config.js';
import type { KindRuleOutcome } from '../core/rules/per-kind.js';
import type { AuditConfigReport, AuditInputSummary, ConfigInputKind } from '../core/reports/audit-config.js';
import { OpError } from './errors.js';
import { auditK8sText } from './k8s-audit.js';
import { looksLikeK8sResource } from '../core/parse/k8s/resources.js';
import { parseOffThread } from './off-thread.js';
import { fileRefusedError } from './saved-output.js';
import type { ClusterSnapshot } from './snapshot.js';
import { contactPointsSchema, portSchema } from './input-schemas.js';

export const MAX_CONFIG_BYTES = 2 * 1024 * 1024;

/** audit_config's input, registered by the MCP tool and checked by `cql-tuner audit-config` (files, --ram, …). */
export const auditConfigInputSchema = z.object({
  files: z
    .array(z.string().min(1).max(4096))
    .max(16)
    .optional()
    .describe('Paths: cassandra.yaml or scylla.yaml, jvm*.options, cassandra-env.sh, a saved java command line, or a conf directory holding them'),
  cassandraYaml: z.string().max(MAX_CONFIG_BYTES).optional().describe('cassandra.yaml (or scylla.yaml) text'),
  jvmOptions: z.array(z.string().max(MAX_CONFIG_BYTES)).max(8).optional().describe('Texts of jvm*.options / cassandra-env.sh files'),
  javaCommandLine: z.string().max(MAX_CONFIG_BYTES).optional().describe('A java command line (ps output, jvm_args line)'),
  k8sResources: z
    .string()
    .max(MAX_CONFIG_BYTES)
    .optional()
    .describe('`kubectl get … -o yaml` (or -o json) of CassandraDatacenter, K8ssandraCluster or ScyllaCluster resources'),
  version: z
    .string()
    .regex(/^\d+\.\d+(?:\.\d+)?/)
    .max(40)
    .optional()
    .describe('Cassandra version the files run on or are meant for, e.g. 4.1.10'),
  jdk: z.number().int().min(6).max(40).optional().describe('Java major version (8, 11, 17, 21)'),
  hostRamGiB: z.number().positive().max(65536).optional(),
  cores: z.number().int().min(1).max(4096).optional(),
  lab: z.boolean().default(false).describe('Compare with the running local lab (system_views.settings)'),
  hosts: contactPointsSchema().optional().describe('Compare with these nodes (contact points, host or host:port)'),
  cqlPort: portSchema().optional(),
  localDataCenter: z.string().max(200).optional(),
  detail: z.boolean().default(false).describe('Show every info finding in the text'),
});

export interface ConfigText {
  /** Where it came from: a path, or "inline cassandra.yaml" … */
  source: string;
  text: string;
  /** Forces the parser; otherwise chosen from the file name and content. */
  kind?: ConfigInputKind;
}

export interface AuditConfigSpec {
  /** Paths on the machine running cql-tuner: cassandra.yaml, jvm*.options, cassandra-env.sh, a saved java command line. */
  files?: string[];
  cassandraYaml?: string;
  jvmOptions?: string[];
  javaCommandLine?: string;
  /** `kubectl get … -o yaml|json` of operator resources (CassandraDatacenter, K8ssandraCluster, ScyllaCluster). */
  k8sResources?: string;
  version?: string;
  jdk?: number;
  hostRamBytes?: number;
  cores?: number;
}

/** Which parser a text needs: by file name first (cassandra.yaml / jvm*.options / cassandra-env.sh), then content. */
export function configKindOf(source: string, text: string): ConfigInputKind | null {
  const name = basename(source).toLowerCase();
  // Operator resources are YAML too: their apiVersion/kind decide before the file name does.
  if (looksLikeK8sResource(text)) return 'k8s-resource';
  if (/\.ya?ml$/.test(name)) return 'cassandra-yaml';
  if (/jvm.*\.options$|cassandra-env\.sh$|\.options$/.test(name)) return 'jvm-options';
  if (parseCassandraYaml(text).ok) return 'cassandra-yaml';
  if (parseJvmOptions(text).ok) return 'jvm-options';
  return null;
}

/** JDK major from an options file name (jvm11-server.options → 11, jvm8-server.options → 8). */
function jdkFromName(source: string): number | undefined {
  const m = /jvm(\d+)-(?:server|clients?)\.options$/.exec(basename(source));
  return m ? Number(m[1]) : undefined;
}

/** Pure part: texts in, report out (the MCP tool and the CLI read the files, then call this). */
export function auditConfigTexts(
  texts: ConfigText[],
  spec: Omit<AuditConfigSpec, 'files' | 'cassandraYaml' | 'jvmOptions' | 'javaCommandLine' | 'k8sResources'> = {},
  snapshot?: ClusterSnapshot,
): AuditConfigReport {
  if (texts.length === 0) throw new OpError('NO_INPUT', 'nothing to audit', 'Give a cassandra.yaml and/or JVM options: file paths, or the text inline.');
  const inputs: AuditInputSummary[] = [];
  let yaml: { parsed: CassandraYaml; source: string } | null = null;
  const jvmTexts: ConfigText[] = [];
  let jdkFrom: string | undefined;
  let jdk = spec.jdk;
  const k8sOutcomes: KindRuleOutcome[] = [];
  let k8sRead = false;
  for (const t of texts) {
    const kind = t.kind ?? configKindOf(t.source, t.text);
    if (kind === 'k8s-resource') {
      const k = auditK8sText(t.source, t.text, { ...(spec.version ? { version: spec.version } : {}), ...(spec.jdk !== undefined ? { jdk: spec.jdk } : {}) });
      inputs.push(...k.inputs.map((i) => ({ ...i, kind })));
      k8sOutcomes.push(...k.outcomes);
      k8sRead ||= k.inputs.some((i) => i.ok);
    } else if (kind === 'cassandra-yaml') {
      const r = parseCassandraYaml(t.text);
      if (r.ok) {
        if (yaml) throw new OpError('TWO_YAMLS', `two cassandra.yaml inputs (${yaml.source}, ${t.source})`, 'Audit one node’s cassandra.yaml per call.');
        yaml = { parsed: r.value, source: t.source };
        inputs.push({
          source: t.source,
          kind,
          ok: true,
          detail:
            r.value.product === 'scylla'
              ? `scylla.yaml (ScyllaDB keys: ${r.value.scyllaKeys.slice(0, 3).join(', ') || 'header'}), ${Object.keys(r.value.settings).length} settings`
              : `naming ${r.value.naming}, ${Object.keys(r.value.settings).length} settings`,
          warnings: r.warnings,
        });
      } else inputs.push({ source: t.source, kind, ok: false, reason: r.reason, warnings: [] });
    } else if (kind === 'jvm-options') {
      jvmTexts.push(t);
      if (jdk === undefined && jdkFromName(t.source) !== undefined) {
        jdk = jdkFromName(t.source);
        jdkFrom = t.source;
      }
    } else {
      inputs.push({
        source: t.source,
        kind: null,
        ok: false,
        reason: 'neither a cassandra.yaml nor JVM options (no known setting or -X/-XX flag found)',
        warnings: [],
      });
    }
  }

  // JVM options files combine (jvm-server.options + jvm17-server.options): the JVM sees them as one list.
  let jvm: { parsed: JvmOptions; source: string } | null = null;
  if (jvmTexts.length) {
    for (const t of jvmTexts) {
      const r = parseJvmOptions(t.text);
      inputs.push(
        r.ok
          ? { source: t.source, kind: 'jvm-options', ok: true, detail: `${r.value.format}, ${r.value.flags.length} flags`, warnings: r.warnings }
          : { source: t.source, kind: 'jvm-options', ok: false, reason: r.reason, warnings: [] },
      );
    }
    const ok = jvmTexts.filter((t) => parseJvmOptions(t.text).ok);
    if (ok.length) {
      const r = parseJvmOptions(ok.map((t) => t.text).join('\n'));
      if (r.ok) jvm = { parsed: r.value, source: ok.map((t) => t.source).join(' + ') };
    }
  }

  const ctx: ConfigContext = {};
  if (spec.version) ctx.version = spec.version;
  if (jdk !== undefined) ctx.jdk = jdk;
  if (spec.hostRamBytes) ctx.hostRamBytes = spec.hostRamBytes;
  if (spec.cores) ctx.cores = spec.cores;

  const outcomes: KindRuleOutcome[] = [...k8sOutcomes];
  if (yaml) outcomes.push(...cassandraYamlRules(yaml.parsed, { ...ctx, source: yaml.source }));
  if (jvm) outcomes.push(...jvmRules(jvm.parsed, { ...ctx, source: jvm.source }));
  let drift: DriftReport | undefined;
  if (snapshot) {
    drift = configDrift(
      yaml?.parsed ?? null,
      yaml?.source ?? null,
      snapshot.nodes.map((n) => ({ node: n.address, settings: n.facts.settings ?? null, releaseVersion: n.releaseVersion })),
    );
    outcomes.push({
      rule: 'config.drift',
      checks: 'cassandra.yaml vs system_views.settings per node, and settings between nodes',
      checked: drift.nodesCompared > 0,
      ...(drift.nodesCompared === 0 ? { skippedBecause: 'no node returned system_views.settings (needs Cassandra 4.0+ over CQL)' } : {}),
      findings: drift.findings,
    });
  }
  if (!yaml && !jvm && !snapshot && !k8sRead) {
    throw new OpError(
      'NOTHING_PARSED',
      `none of the inputs could be read: ${inputs.map((i) => `${i.source}: ${i.reason}`).join('; ')}`,
      'Give a cassandra.yaml, jvm*.options, cassandra-env.sh, a java command line, or `kubectl get -o yaml` of a CassandraDatacenter, K8ssandraCluster or ScyllaCluster.',
    );
  }

  const findings = worstFirst(outcomes.flatMap((o) => o.findings));
  const counts = severityCounts(findings);
  return {
    inputs,
    context: {
      version: spec.version ?? null,
      jdk: jdk ?? null,
      hostRamBytes: spec.hostRamBytes ?? null,
      cores: spec.cores ?? null,
      ...(jdkFrom ? { jdkFrom } : {}),
    },
    counts,
    findings,
    checked: outcomes.map(checkedRow),
    ...(drift ? { drift } : {}),
  };
}

/** A config file named by a caller, read through collect/safe-file.ts: the policy every tool shares for named files. */
async function readConfigFile(path: string): Promise<string> {
  const r = await readNamedFile(path, { maxBytes: MAX_CONFIG_BYTES });
  if (r.ok) return r.text;
  const fix =
    r.code === 'NOT_FOUND'
      ? 'Check the path (it is read on the machine cql-tuner runs on), or pass the text inline.'
      : 'Give the path of cassandra.yaml, a jvm*.options file, cassandra-env.sh or a saved java command line.';
  throw fileRefusedError(path, r, fix, 'Give the configuration file itself, not a log or an archive.');
}

/**
 * The files of a conf directory that configure the node: cassandra.yaml or scylla.yaml, cassandra-env.sh,
 * jvm-server.options (or 3.x jvm.options) and the jvmN-server.options of the JDK in use. With several
 * JDK-specific files and no JDK given, none of them is picked (they would contradict each other).
 */
export function confDirFiles(names: string[], jdk?: number): { files: string[]; note?: string } {
  const pick = names.filter((n) => /^(?:cassandra|scylla)\.yaml$|^cassandra-env\.sh$|^jvm(?:-server)?\.options$/.test(n));
  const perJdk = names.filter((n) => /^jvm\d+-server\.options$/.test(n));
  if (jdk !== undefined) pick.push(...perJdk.filter((n) => n === `jvm${jdk}-server.options`));
  else if (perJdk.length === 1) pick.push(perJdk[0]!);
  const note = jdk === undefined && perJdk.length > 1 ? `${perJdk.join(', ')} skipped: give jdk to audit the one in use` : undefined;
  return { files: pick.sort(), ...(note ? { note } : {}) };
}

/** The inputs of a spec as texts (files read here; a directory stands for its configuration files). */
export async function configTextsOf(spec: AuditConfigSpec): Promise<{ texts: ConfigText[]; notes: string[] }> {
  const texts: ConfigText[] = [];
  const notes: string[] = [];
  const files: string[] = [];
  for (const f of spec.files ?? []) {
    // A conf directory is resolved like a file (no /proc, /sys or /dev); its files are then read one by one as named files.
    const dir = await namedDirectory(f);
    if (dir.ok) {
      const { files: inDir, note } = confDirFiles(await readdir(dir.path), spec.jdk);
      if (!inDir.length)
        throw new OpError(
          'NO_CONFIG_FILES',
          `${f} holds no cassandra.yaml, scylla.yaml, cassandra-env.sh or jvm*.options${note ? ` (${note})` : ''}`,
          'Give the conf directory of the node (e.g. /etc/cassandra) or the files themselves.',
        );
      if (note) notes.push(`${f}: ${note}`);
      files.push(...inDir.map((n) => join(f, n)));
    } else files.push(f);
  }
  for (const f of files) texts.push({ source: f, text: await readConfigFile(f) });
  if (spec.cassandraYaml !== undefined) texts.push({ source: 'inline cassandra.yaml', text: spec.cassandraYaml, kind: 'cassandra-yaml' });
  (spec.jvmOptions ?? []).forEach((t, i) =>
    texts.push({ source: `inline JVM options${(spec.jvmOptions?.length ?? 0) > 1 ? ` #${i + 1}` : ''}`, text: t, kind: 'jvm-options' }),
  );
  if (spec.javaCommandLine !== undefined) texts.push({ source: 'inline java command line', text: spec.javaCommandLine, kind: 'jvm-options' });
  if (spec.k8sResources !== undefined) texts.push({ source: 'inline kubernetes resources', text: spec.k8sResources, kind: 'k8s-resource' });
  return { texts, notes };
}

export async function auditConfig(spec: AuditConfigSpec, snapshot?: ClusterSnapshot): Promise<AuditConfigReport> {
  const { texts, notes } = await configTextsOf(spec);
  // Large texts are parsed off the event loop with a deadline (ops/off-thread.ts).
  const chars = texts.reduce((n, t) => n + t.text.length, 0);
  const r = await parseOffThread('auditConfigTexts', { texts, spec, ...(snapshot ? { snapshot } : {}) }, { what: 'the configuration texts', chars });
  return notes.length ? { ...r, notes } : r;
}
