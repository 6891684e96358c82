import { Command, InvalidArgumentError } from 'commander';
import { DEFAULT_WINDOW_SECONDS, MAX_WINDOW_SECONDS } from '../../ops/diagnose-window.js';
import { diagnose, diagnoseBundle, type DiagnoseInput } from '../../ops/diagnose.js';
import { diagnoseCliInputSchema, DIAGNOSE_FLAG_NAMES } from '../../ops/diagnose-input.js';
import { parseFlags } from '../validate-flags.js';
import { checkReportPath, writeDiagnosisReport } from '../../ops/diagnose-report.js';
import { k8sSnapshotInput, withK8sResource } from '../../ops/k8s-diagnose.js';
import { readK8sResource } from '../../collect/k8s-discovery.js';
import { parseK8sRef } from '../../collect/k8s-discovery.js';
import { diagnoseMgmtApiUrls, k8sViaMgmtApi, MGMT_API_HELP, refuseWithMgmtApi, withMgmtApiFallback, type MgmtApiFlag } from './diagnose-mgmt-api.js';
import { OpError } from '../../ops/errors.js';
import { loadRulePolicy, RULE_POLICY_ENV } from '../../ops/rule-policy.js';
import type { RulePolicy } from '../../core/rules/policy.js';
import { renderDiagnosis } from '../../render/diagnosis.js';
import { abortOnSignal } from '../abort-on-signal.js';
import { failWith, printJson, printText } from '../output.js';
import { progressLine } from '../progress-line.js';
import { withCommandLineHosts } from '../../collect/credential-hosts.js';
import { sinceSecondsFrom } from '../../ops/diagnose-since.js';
import { addClusterOptions, commandLineHostsOf, snapshotInputFrom, type ClusterFlags } from './cluster-options.js';

const LOG_HELP =
  "read a log file for a node (repeatable, with --bundle too; a node's system.log and debug.log count each event once), " +
  'e.g. --log 10.0.0.1=/var/log/cassandra/system.log';

export function diagnoseCommand(): Command {
  return addClusterOptions(
    new Command('diagnose').description('collect a cluster (or the lab, or a bundle) and report findings worst first, with evidence and fixes'),
  )
    .option('--bundle <dir>', 'diagnose a saved bundle instead of collecting')
    .option(
      '--k8s <namespace/name>',
      'collect the pods of a CassandraDatacenter (cass-operator, k8ssandra) or ScyllaCluster: found with kubectl get pods, nodetool through kubectl exec',
    )
    .option('--mgmt-api [url]', MGMT_API_HELP, (v: string, prev: MgmtApiFlag) => [...(Array.isArray(prev) ? prev : []), v])
    .option('--save <dir>', 'also save every raw output as a bundle in DIR')
    .option('--log <node=path>', LOG_HELP, (v: string, prev: string[] = []) => [...prev, v])
    .option(
      '--window <duration>',
      `seconds between two sweeps whose counters become rates, with host disk/CPU figures (30, 30s, 2m; 0 = one instant sweep; default ${DEFAULT_WINDOW_SECONDS}s; not with --bundle)`,
      windowArg,
    )
    .option(
      '--since <duration|time>',
      "the incident period: logs from then on, and your Prometheus's metrics of it (2h, 90m, 02:13, 2026-11-24T02:00:00Z)",
      sinceArg,
    )
    .option('--report <file>', "also write the report to hand over: FILE.md (Markdown) or FILE.html (one self-contained page with the window's charts)")
    .option(
      '--rules <file>',
      `your rule policy: rules or findings switched off, thresholds overridden (YAML; default $${RULE_POLICY_ENV}); the report lists what it changed`,
    )
    .option('--detail', 'every finding, info included')
    .option('--json', 'print the report as JSON')
    .action(async (o: DiagnoseFlags & { k8s?: string; mgmtApi?: MgmtApiFlag; report?: string; rules?: string; detail?: boolean; json?: boolean }) => {
      const progress = progressLine();
      const abort = abortOnSignal();
      try {
        // A wrong report path is refused before the cluster is collected, not after a whole window.
        if (o.report !== undefined) await checkReportPath(o.report);
        const policy = await loadRulePolicy(o.rules);
        if (o.since !== undefined && o.bundle)
          throw new OpError('BAD_ARGUMENT', '--since reads the live logs and metrics of a period; a bundle is one past moment', 'Drop --since or --bundle.');
        if (o.mgmtApi !== undefined) refuseWithMgmtApi(o);
        const r = o.k8s
          ? await diagnoseK8s(o.k8s, o, { onProgress: progress, signal: abort.signal, ...(policy ? { policy } : {}) })
          : o.mgmtApi !== undefined
            ? await diagnoseMgmtApiUrls(o.mgmtApi, { onProgress: progress, signal: abort.signal, ...(policy ? { policy } : {}) })
            : o.bundle
              ? await diagnoseBundle(o.bundle, {
                  logFiles: logFilesFrom(o.log ?? []),
                  onProgress: progress,
                  signal: abort.signal,
                  ...(policy ? { policy } : {}),
                })
              : await withCommandLineHosts(commandLineHostsOf(o), () =>
                  diagnose(checkedDiagnoseInput(o), {
                    onProgress: progress,
                    signal: abort.signal,
                    ...(policy ? { policy } : {}),
                    // the period's charts are drawn only for the hand-over report
                    ...(o.report !== undefined ? { periodCharts: true } : {}),
                  }),
                );
        progress.done();
        const report = o.report !== undefined ? await writeDiagnosisReport(r, o.report) : undefined;
        // the SVG of the period's charts belongs in the report file, not in the JSON on stdout
        if (r.since?.charts) delete r.since.charts;
        if (o.json) printJson(report ? { ...r, report } : r);
        else
          printText(renderDiagnosis(r, { detail: o.detail === true }) + (report ? `\n\nReport (${report.format}, ${report.bytes} bytes): ${report.path}` : ''));
        if (r.counts.critical > 0 || r.bundleError) process.exitCode = 1;
      } catch (e) {
        progress.done();
        failWith(e, o);
      } finally {
        abort.dispose();
      }
    });
}

/** The live diagnosis the flags ask for, checked against the schema the MCP tool registers (widened for the user's own flags). */
function checkedDiagnoseInput(o: DiagnoseFlags): DiagnoseInput {
  const { targetOrigin, ...fields } = snapshotInputFrom(o);
  const input = parseFlags(
    'diagnose',
    diagnoseCliInputSchema,
    { ...fields, bundleDir: o.save, logFiles: logFilesFrom(o.log ?? []), windowSeconds: o.window, sinceSeconds: o.since },
    DIAGNOSE_FLAG_NAMES,
  );
  return { ...input, targetOrigin };
}

type DiagnoseFlags = ClusterFlags & { bundle?: string; save?: string; log?: string[]; window?: number; since?: number; mgmtApi?: MgmtApiFlag };

/** --since 2h / 02:13 / ISO → seconds back from now (the tool's clock and zone). */
export function sinceArg(v: string): number {
  const s = sinceSecondsFrom(v, Math.floor(Date.now() / 1000), -new Date().getTimezoneOffset());
  if (s === null || s <= 0)
    throw new InvalidArgumentError(`--since ${JSON.stringify(v)}: give a duration back from now (2h, 90m) or a past time (02:13, 2026-11-24T02:00:00Z)`);
  return s;
}

/** --k8s: the pods replace --hosts/--lab, and each node's nodetool runs in its pod (not with --nodetool-via or --bundle). */
async function diagnoseK8s(ref: string, o: DiagnoseFlags, deps: { onProgress: (p: { message: string }) => void; signal: AbortSignal; policy?: RulePolicy }) {
  const clash = [o.bundle && '--bundle', o.lab && '--lab', o.hosts?.length && '--hosts', o.nodetoolVia && '--nodetool-via'].filter(Boolean);
  if (clash.length)
    throw new OpError('BAD_ARGUMENT', `--k8s finds the nodes itself; ${clash.join(', ')} cannot be given with it`, 'Drop the other flag, or drop --k8s.');
  const { hosts: _h, lab: _l, nodetoolVia: _v, ...base } = checkedDiagnoseInput(o);
  deps.onProgress({ message: `finding the pods of ${ref}` });
  const { input, discovery } = await k8sSnapshotInput(ref, base, { signal: deps.signal });
  const parsed = parseK8sRef(ref);
  const namespace = parsed.ok ? parsed.ref.namespace : '';
  // --mgmt-api: the pods' Management API through the pod proxy; a URL there would bypass the discovery.
  if (Array.isArray(o.mgmtApi)) {
    const fix = 'Write --k8s NAMESPACE/NAME --mgmt-api (no URL), or drop --k8s.';
    throw new OpError('BAD_ARGUMENT', '--k8s reads each pod through the API server; --mgmt-api takes no URL with it', fix);
  }
  const report =
    o.mgmtApi === true
      ? await k8sViaMgmtApi(namespace, discovery, deps)
      : await withMgmtApiFallback(
          () => diagnose({ ...base, ...input }, { onProgress: deps.onProgress, signal: deps.signal, ...(deps.policy ? { policy: deps.policy } : {}) }),
          namespace,
          discovery,
          deps,
        );
  // The resource the pods belong to: its resources, placement and embedded config are part of the diagnosis.
  if (!parsed.ok) return report;
  deps.onProgress({ message: `reading the ${discovery.operator} resource ${ref}` });
  return withK8sResource(report, await readK8sResource(parsed.ref, discovery.operator, { signal: deps.signal }));
}

/** "30", "30s", "2m", "1.5m" → seconds (0 allowed: one instant sweep). */
export function windowArg(v: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(s|sec|m|min)?$/i.exec(v.trim());
  const n = m ? Number(m[1]) * (/^m/i.test(m[2] ?? '') ? 60 : 1) : NaN;
  if (!Number.isFinite(n) || n > MAX_WINDOW_SECONDS)
    throw new InvalidArgumentError(`--window ${JSON.stringify(v)}: give seconds (30, 30s) or minutes (2m), at most ${MAX_WINDOW_SECONDS} s`);
  return n;
}

function logFilesFrom(specs: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const s of specs) {
    const i = s.indexOf('=');
    if (i <= 0) throw new OpError('BAD_ARGUMENT', `--log ${JSON.stringify(s)} is not node=path`, 'Write it as --log 10.0.0.1=/var/log/cassandra/system.log.');
    (out[s.slice(0, i)] ??= []).push(s.slice(i + 1));
  }
  return out;
}
