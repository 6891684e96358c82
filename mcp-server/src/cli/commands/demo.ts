import { Command, Option } from 'commander';
import { demoInputSchema, runDemo } from '../../ops/demo.js';
import { parseFlags } from '../validate-flags.js';
import { renderNodetoolReport } from '../../render/nodetool.js';
import { renderDiagnosis } from '../../render/diagnosis.js';
import { failWith, printJson, printText } from '../output.js';
import { abortOnSignal } from '../abort-on-signal.js';
import { progressLine } from '../progress-line.js';

export function demoCommand(): Command {
  return new Command('demo')
    .description('start a local real Cassandra (unless one runs), look at it with nodetool and diagnose it')
    .addOption(new Option('--nodes <n>', 'number of nodes').choices(['1', '3']).default('1'))
    .addOption(new Option('--version <v>', 'Cassandra line').choices(['5.0', '4.1']).default('5.0'))
    .option('--keep', 'leave the lab running afterwards')
    .option('--json', 'print the reports as JSON')
    .action(async (o: { nodes: string; version: string; keep?: boolean; json?: boolean }) => {
      const progress = progressLine();
      const abort = abortOnSignal();
      try {
        const input = parseFlags('demo', demoInputSchema, { nodes: Number(o.nodes), version: o.version, keep: o.keep === true });
        const demo = await runDemo({ ...input, onProgress: progress, signal: abort.signal });
        progress.done();
        if (o.json) printJson(demo);
        else {
          printText(demo.reports.map(renderNodetoolReport).join('\n\n'));
          if (demo.diagnosis) printText(`\n${renderDiagnosis(demo.diagnosis)}`);
          printText(
            demo.stoppedLab ? '\nLab stopped (use --keep to leave it running).' : demo.startedLab ? '\nLab left running: `cql-tuner lab stop` stops it.' : '',
          );
        }
        if (demo.reports.some((r) => !r.ok)) process.exitCode = 1;
      } catch (e) {
        progress.done();
        failWith(e, o);
      } finally {
        abort.dispose();
      }
    });
}
