import { Command } from 'commander';
import { auditConfig, renderAuditConfig } from '../../ops/audit-config.js';
import { takeSnapshot } from '../../ops/snapshot.js';
import { abortOnSignal } from '../abort-on-signal.js';
import { intArg, positiveNumberArg } from '../arg-parsers.js';
import { failWith, printJson, printText } from '../output.js';
import { progressLine } from '../progress-line.js';
import { withCommandLineHosts } from '../../collect/credential-hosts.js';
import { addClusterOptions, commandLineHostsOf, snapshotInputFrom, type ClusterFlags } from './cluster-options.js';

const GIB = 1024 ** 3;

export function auditConfigCommand(): Command {
  return addClusterOptions(
    new Command('audit-config').description('audit cassandra.yaml and JVM options (jvm*.options, cassandra-env.sh, a saved java command line); with --lab/--hosts also drift against the running nodes'),
  )
    .argument('<files...>', 'cassandra.yaml or scylla.yaml, jvm*.options, cassandra-env.sh, a file holding a java command line, or a conf directory')
    .option('--version <v>', 'Cassandra version the files run on or are meant for, e.g. 4.1.10')
    .option('--jdk <n>', 'Java major version (8, 11, 17, 21)', intArg('jdk'))
    .option('--ram <GiB>', 'host RAM in GiB', positiveNumberArg('ram'))
    .option('--cores <n>', 'host CPU cores', intArg('cores'))
    .option('--detail', 'every info finding')
    .option('--json', 'print the report as JSON')
    .action(async (files: string[], o: ClusterFlags & { version?: string; jdk?: number; ram?: number; cores?: number; detail?: boolean; json?: boolean }) => {
      const progress = progressLine();
      const abort = abortOnSignal();
      try {
        const live = o.lab === true || (o.hosts?.length ?? 0) > 0;
        const input = { ...snapshotInputFrom(o), nodetool: false };
        const snapshot = live ? await withCommandLineHosts(commandLineHostsOf(o), () => takeSnapshot(input, { onProgress: progress, signal: abort.signal })) : undefined;
        progress.done();
        const r = await auditConfig(
          {
            files,
            ...(o.version ? { version: o.version } : {}),
            ...(o.jdk !== undefined ? { jdk: o.jdk } : {}),
            ...(o.ram ? { hostRamBytes: Math.round(o.ram * GIB) } : {}),
            ...(o.cores ? { cores: o.cores } : {}),
          },
          snapshot,
        );
        if (o.json) printJson(r);
        else printText(renderAuditConfig(r, { detail: o.detail === true }));
        if (r.counts.critical > 0) process.exitCode = 1;
      } catch (e) {
        progress.done();
        failWith(e, o);
      } finally {
        abort.dispose();
      }
    });
}
