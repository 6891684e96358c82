import { Command } from 'commander';
import { analyzeBundle, takeSnapshot } from '../../ops/snapshot.js';
import { renderSnapshot, snapshotView } from '../../render/snapshot.js';
import { abortOnSignal } from '../abort-on-signal.js';
import { failWith, printJson, printText } from '../output.js';
import { progressLine } from '../progress-line.js';
import { addClusterOptions, snapshotInputFrom, type ClusterFlags } from './cluster-options.js';

export function snapshotCommand(): Command {
  return addClusterOptions(new Command('snapshot').description('collect every node of a cluster: CQL virtual tables first, nodetool for heap/GC/dropped messages'))
    .option('--no-nodetool', 'CQL only: skip heap/GC/dropped messages')
    .option('--bundle <dir>', 'also write every raw output to DIR (manifest.json + one file per command per node)')
    .option('--detail', 'with --json: every collected fact')
    .option('--json', 'print the snapshot as JSON')
    .action(async (o: ClusterFlags & { nodetool: boolean; bundle?: string; detail?: boolean; json?: boolean }) => {
      const progress = progressLine();
      const abort = abortOnSignal();
      try {
        const s = await takeSnapshot(
          { ...snapshotInputFrom(o), nodetool: o.nodetool, bundleDir: o.bundle },
          { onProgress: progress, signal: abort.signal },
        );
        progress.done();
        const view = snapshotView(s);
        if (o.json) printJson(o.detail ? { ...view, detail: s.nodes } : view);
        else printText(renderSnapshot(view));
        if (view.reachableCount < view.nodeCount || view.bundleError) process.exitCode = 1;
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
