import { Command, InvalidArgumentError } from 'commander';
import { DEFAULT_WINDOW_SECONDS, MAX_WINDOW_SECONDS } from '../../ops/diagnose-window.js';
import { diagnose, diagnoseBundle } from '../../ops/diagnose.js';
import { interpretText } from '../../ops/interpret.js';
import { readSavedOutput } from '../../ops/saved-output.js';
import { renderDiagnosis } from '../../render/diagnosis.js';
import { renderInterpret } from '../../render/interpret.js';
import { abortOnSignal } from '../abort-on-signal.js';
import { failWith, printJson, printText } from '../output.js';
import { progressLine } from '../progress-line.js';
import { withCommandLineHosts } from '../../collect/credential-hosts.js';
import { addClusterOptions, commandLineHostsOf, snapshotInputFrom, type ClusterFlags } from './cluster-options.js';

const LOG_HELP =
  "read a log file for a node (repeatable, with --bundle too; a node's system.log and debug.log count each event once), " +
  'e.g. --log 10.0.0.1=/var/log/cassandra/system.log';

export function diagnoseCommand(): Command {
  return addClusterOptions(new Command('diagnose').description('collect a cluster (or the lab, or a bundle) and report findings worst first, with evidence and fixes'))
    .option('--bundle <dir>', 'diagnose a saved bundle instead of collecting')
    .option('--save <dir>', 'also save every raw output as a bundle in DIR')
    .option('--log <node=path>', LOG_HELP, (v: string, prev: string[] = []) => [...prev, v])
    .option(
      '--window <duration>',
      `seconds between two sweeps whose counters become rates, with host disk/CPU figures (30, 30s, 2m; 0 = one instant sweep; default ${DEFAULT_WINDOW_SECONDS}s; not with --bundle)`,
      windowArg,
    )
    .option('--detail', 'every finding, info included')
    .option('--json', 'print the report as JSON')
    .action(async (o: ClusterFlags & { bundle?: string; save?: string; log?: string[]; window?: number; detail?: boolean; json?: boolean }) => {
      const progress = progressLine();
      const abort = abortOnSignal();
      try {
        const r = o.bundle
          ? await diagnoseBundle(o.bundle, { logFiles: logFilesFrom(o.log ?? []), onProgress: progress, signal: abort.signal })
          : await withCommandLineHosts(commandLineHostsOf(o), () =>
              diagnose(
                { ...snapshotInputFrom(o), bundleDir: o.save, logFiles: logFilesFrom(o.log ?? []), windowSeconds: o.window ?? DEFAULT_WINDOW_SECONDS },
                { onProgress: progress, signal: abort.signal },
              ),
            );
        progress.done();
        if (o.json) printJson(r);
        else printText(renderDiagnosis(r, { detail: o.detail === true }));
        if (r.counts.critical > 0 || r.bundleError) process.exitCode = 1;
      } catch (e) {
        progress.done();
        failWith(e, o);
      } finally {
        abort.dispose();
      }
    });
}

/** "30", "30s", "2m", "1.5m" → seconds (0 allowed: one instant sweep). */
export function windowArg(v: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(s|sec|m|min)?$/i.exec(v.trim());
  const n = m ? Number(m[1]) * (/^m/i.test(m[2] ?? '') ? 60 : 1) : NaN;
  if (!Number.isFinite(n) || n > MAX_WINDOW_SECONDS) throw new InvalidArgumentError(`--window ${JSON.stringify(v)}: give seconds (30, 30s) or minutes (2m), at most ${MAX_WINDOW_SECONDS} s`);
  return n;
}

function logFilesFrom(specs: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const s of specs) {
    const i = s.indexOf('=');
    if (i <= 0) throw Object.assign(new Error(`--log ${JSON.stringify(s)} is not node=path`), { code: 'BAD_ARGUMENT', fix: 'Write it as --log 10.0.0.1=/var/log/cassandra/system.log.' });
    (out[s.slice(0, i)] ??= []).push(s.slice(i + 1));
  }
  return out;
}

export function interpretCommand(): Command {
  return new Command('interpret')
    .description('detect the kind of a saved or pasted output (file, or - for stdin), parse it and run the rules')
    .argument('<file>', 'a file, or - to read standard input')
    .option('--json', 'print the report as JSON')
    .action(async (file: string, o: { json?: boolean }) => {
      try {
        const text = file === '-' ? await readStdin() : await readSavedOutput(file);
        const r = interpretText(text);
        if (o.json) printJson(r);
        else printText(renderInterpret(r));
        if (!r.ok) process.exitCode = 2;
        else if (r.findings.some((f) => f.severity === 'critical')) process.exitCode = 1;
      } catch (e) {
        failWith(e, o);
      }
    });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
