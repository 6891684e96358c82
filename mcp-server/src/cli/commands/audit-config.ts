import { Command } from 'commander';
import { auditConfig, auditConfigInputSchema } from '../../ops/audit-config.js';
import { renderAuditConfig } from '../../render/audit-config.js';
import { takeSnapshot, type SnapshotInput } from '../../ops/snapshot.js';
import { abortOnSignal } from '../abort-on-signal.js';
import { cliNumber, parseFlags } from '../validate-flags.js';
import { failWith, printJson, printText } from '../output.js';
import { progressLine } from '../progress-line.js';
import { withCommandLineHosts } from '../../collect/credential-hosts.js';
import { addClusterOptions, checkedSnapshotInput, commandLineHostsOf, type ClusterFlags } from './cluster-options.js';

const GIB = 1024 ** 3;

export function auditConfigCommand(): Command {
  return addClusterOptions(
    new Command('audit-config').description(
      'audit cassandra.yaml and JVM options (jvm*.options, cassandra-env.sh, a saved java command line); with --lab/--hosts also drift against the running nodes',
    ),
  )
    .argument('<files...>', 'cassandra.yaml or scylla.yaml, jvm*.options, cassandra-env.sh, a file holding a java command line, or a conf directory')
    .option('--version <v>', 'Cassandra version the files run on or are meant for, e.g. 4.1.10')
    .option('--jdk <n>', 'Java major version (8, 11, 17, 21)')
    .option('--ram <GiB>', 'host RAM in GiB')
    .option('--cores <n>', 'host CPU cores')
    .option('--detail', 'every info finding')
    .option('--json', 'print the report as JSON')
    .action(async (files: string[], o: ClusterFlags & { version?: string; jdk?: string; ram?: string; cores?: string; detail?: boolean; json?: boolean }) => {
      const progress = progressLine();
      const abort = abortOnSignal();
      try {
        const spec = parseFlags(
          'audit-config',
          auditConfigInputSchema,
          {
            files,
            version: o.version,
            jdk: cliNumber(o.jdk),
            hostRamGiB: cliNumber(o.ram),
            cores: cliNumber(o.cores),
            lab: o.lab === true,
            hosts: o.hosts,
            cqlPort: o.cqlPort,
            localDataCenter: o.localDc,
            detail: o.detail === true,
          },
          { files: '<files>', hostRamGiB: '--ram', localDataCenter: '--local-dc' },
        );
        const live = spec.lab || (spec.hosts?.length ?? 0) > 0;
        const input = live ? checkedSnapshotInput('audit-config', o, { nodetool: false }) : undefined;
        const collect = (i: SnapshotInput) => takeSnapshot(i, { onProgress: progress, signal: abort.signal });
        const snapshot = input ? await withCommandLineHosts(commandLineHostsOf(o), () => collect(input)) : undefined;
        progress.done();
        const r = await auditConfig(
          {
            files: spec.files,
            ...(spec.version ? { version: spec.version } : {}),
            ...(spec.jdk !== undefined ? { jdk: spec.jdk } : {}),
            ...(spec.hostRamGiB ? { hostRamBytes: Math.round(spec.hostRamGiB * GIB) } : {}),
            ...(spec.cores ? { cores: spec.cores } : {}),
          },
          snapshot,
        );
        if (o.json) printJson(r);
        else printText(renderAuditConfig(r, { detail: spec.detail }));
        if (r.counts.critical > 0) process.exitCode = 1;
      } catch (e) {
        progress.done();
        failWith(e, o);
      } finally {
        abort.dispose();
      }
    });
}
