import { Command } from 'commander';
import { analyzeBundle, DEFAULT_NODE_TIMEOUT_MS, DEFAULT_SWEEP_CONCURRENCY, takeSnapshot } from '../../ops/snapshot.js';
import { renderSnapshot, snapshotView } from '../../render/snapshot.js';
import { abortOnSignal } from '../abort-on-signal.js';
import { failWith, printJson, printText } from '../output.js';
import { progressLine } from '../progress-line.js';
import { intArg } from './nodetool.js';

const list = (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean);

export function snapshotCommand(): Command {
  return new Command('snapshot')
    .description('collect every node of a cluster: CQL virtual tables first, nodetool for heap/GC/dropped messages')
    .option('--hosts <list>', 'contact points, comma-separated (host or host:port)', list)
    .option('--lab', 'use the running local lab')
    .option('--cql-port <port>', 'native transport port', intArg('cql-port'))
    .option('--local-dc <dc>', 'local datacenter for the driver')
    .option('--dc <dc>', 'only nodes of this datacenter')
    .option('--jmx-host <host>', '"node" (each node’s address) or a fixed JMX host', 'node')
    .option('--jmx-port <port>', 'JMX port', intArg('jmx-port'), 7199)
    .option('--no-nodetool', 'CQL only: skip heap/GC/dropped messages')
    .option('--nodetool-path <path>', 'absolute path of nodetool')
    .option('--concurrency <n>', 'nodes collected at once', intArg('concurrency'), DEFAULT_SWEEP_CONCURRENCY)
    .option('--node-timeout <ms>', 'per-node deadline', intArg('node-timeout'), DEFAULT_NODE_TIMEOUT_MS)
    .option('--bundle <dir>', 'also write every raw output to DIR (manifest.json + one file per command per node)')
    .option('--detail', 'with --json: every collected fact')
    .option('--json', 'print the snapshot as JSON')
    .action(async (o: { hosts?: string[]; lab?: boolean; cqlPort?: number; localDc?: string; dc?: string; jmxHost: string; jmxPort: number; nodetool: boolean; nodetoolPath?: string; concurrency: number; nodeTimeout: number; bundle?: string; detail?: boolean; json?: boolean }) => {
      const progress = progressLine();
      const abort = abortOnSignal();
      try {
        const s = await takeSnapshot(
          {
            hosts: o.hosts,
            lab: o.lab === true,
            cqlPort: o.cqlPort,
            localDataCenter: o.localDc,
            dc: o.dc,
            jmxHost: o.jmxHost,
            jmxPort: o.jmxPort,
            nodetool: o.nodetool,
            nodetoolPath: o.nodetoolPath,
            concurrency: o.concurrency,
            nodeTimeoutMs: o.nodeTimeout,
            bundleDir: o.bundle,
          },
          { onProgress: progress, signal: abort.signal },
        );
        progress.done();
        const view = snapshotView(s);
        if (o.json) printJson(o.detail ? { ...view, detail: s.nodes } : view);
        else printText(renderSnapshot(view));
        if (view.reachableCount < view.nodeCount) process.exitCode = 1;
      } catch (e) {
        progress.done();
        failWith(e, o);
      } finally {
        abort.dispose();
      }
    });
}

export function analyzeCommand(): Command {
  return new Command('analyze')
    .description('re-analyse a bundle written by `snapshot --bundle` offline, with the same parsers')
    .argument('<bundle>', 'bundle directory')
    .option('--detail', 'with --json: every collected fact')
    .option('--json', 'print as JSON')
    .action(async (dir: string, o: { detail?: boolean; json?: boolean }) => {
      try {
        const s = await analyzeBundle(dir);
        const view = snapshotView(s);
        if (o.json) printJson(o.detail ? { ...view, detail: s.nodes } : view);
        else printText(renderSnapshot(view));
      } catch (e) {
        failWith(e, o);
      }
    });
}
