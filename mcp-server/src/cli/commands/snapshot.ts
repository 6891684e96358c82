import { Command } from 'commander';
import { analyzeBundle, takeSnapshot, type ClusterSnapshot, type RawRequest } from '../../ops/snapshot.js';
import { renderRawOutputs, renderSnapshot, snapshotView } from '../../render/snapshot.js';
import { abortOnSignal } from '../abort-on-signal.js';
import { failWith, printJson, printText } from '../output.js';
import { progressLine } from '../progress-line.js';
import { withCommandLineHosts } from '../../collect/credential-hosts.js';
import { addClusterOptions, checkedSnapshotInput, commandLineHostsOf, type ClusterFlags } from './cluster-options.js';
import { analyzeBundleInputSchema } from '../../ops/snapshot.js';
import { parseFlags } from '../validate-flags.js';

interface RawFlags {
  raw?: boolean;
  rawNode?: string;
  rawSource?: string;
}

/** --raw-node / --raw-source (either implies --raw): which raw outputs to print beside the summary. */
function rawRequestFrom(o: RawFlags): RawRequest | undefined {
  if (!o.raw && !o.rawNode && !o.rawSource) return undefined;
  return { ...(o.rawNode ? { node: o.rawNode } : {}), ...(o.rawSource ? { source: o.rawSource } : {}) };
}

function addRawOptions(c: Command): Command {
  return c
    .option('--raw', 'also print raw outputs (capped; narrow with --raw-node / --raw-source)')
    .option('--raw-node <address>', 'raw outputs of this node only')
    .option('--raw-source <name>', 'raw outputs of this source only, e.g. tpstats or cql:system_views.thread_pools');
}

function print(s: ClusterSnapshot, o: { json?: boolean; detail?: boolean }): ReturnType<typeof snapshotView> {
  const view = snapshotView(s);
  if (o.json) printJson({ ...view, ...(o.detail ? { detail: s.nodes } : {}), ...(s.raw ? { raw: s.raw } : {}) });
  else printText(renderSnapshot(view) + (s.raw ? `\n\n${renderRawOutputs(s.raw)}` : ''));
  return view;
}

export function snapshotCommand(): Command {
  return addRawOptions(
    addClusterOptions(new Command('snapshot').description('collect every node of a cluster: CQL virtual tables first, nodetool for heap/GC/dropped messages')),
  )
    .option('--no-nodetool', 'CQL only: skip heap/GC/dropped messages')
    .option('--bundle <dir>', 'also write every raw output to DIR (manifest.json + one file per command per node)')
    .option('--detail', 'with --json: every collected fact')
    .option('--json', 'print the snapshot as JSON')
    .action(async (o: ClusterFlags & RawFlags & { nodetool: boolean; bundle?: string; detail?: boolean; json?: boolean }) => {
      const progress = progressLine();
      const abort = abortOnSignal();
      try {
        const raw = rawRequestFrom(o);
        const input = checkedSnapshotInput('snapshot', o, { nodetool: o.nodetool, bundleDir: o.bundle, ...(raw ? { raw } : {}) });
        // --hosts / --jmx-host are the user's own flags: credentials may go there for this run.
        const s = await withCommandLineHosts(commandLineHostsOf(o), () => takeSnapshot(input, { onProgress: progress, signal: abort.signal }));
        progress.done();
        const view = print(s, o);
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
  return addRawOptions(
    new Command('analyze')
      .description(
        're-analyse a bundle written by `snapshot --bundle` offline, with the same parsers; also an unpacked OpsCenter / ds-collector ' +
          'diagnostic tarball (nodes/<address>/nodetool/…; `diagnose --bundle` reads its logs and compares its cassandra.yaml files too)',
      )
      .argument('<bundle>', 'bundle directory, or the folder holding nodes/ of a diagnostic tarball'),
  )
    .option('--detail', 'with --json: every collected fact')
    .option('--json', 'print as JSON')
    .action(async (dir: string, o: RawFlags & { detail?: boolean; json?: boolean }) => {
      try {
        const raw = rawRequestFrom(o);
        const names = { path: '<bundle>', 'raw.node': '--raw-node', 'raw.source': '--raw-source' };
        const input = parseFlags('analyze', analyzeBundleInputSchema, { path: dir, detail: o.detail === true, raw }, names);
        print(await analyzeBundle(input.path, input.raw ? { raw: input.raw } : {}), o);
      } catch (e) {
        failWith(e, o);
      }
    });
}
