import { Command } from 'commander';
import { analyzeLogFiles, logsInputFits } from '../../ops/analyze-logs.js';
import { parseFlags } from '../validate-flags.js';
import { renderChecked, renderFinding, summariseParsed } from '../../render/interpret.js';
import { abortOnSignal } from '../abort-on-signal.js';
import { failWith, printJson, printText } from '../output.js';

export function logsCommand(): Command {
  return new Command('logs')
    .description('stream log files of one node (system.log, debug.log, gc.log, Scylla journal; .gz too) and report what they show')
    .argument('<files...>', 'log files of the same node')
    .option('--node <name>', 'node name or address for the report')
    .option('--json', 'print facts and findings as JSON')
    .action(async (files: string[], o: { node?: string; json?: boolean }) => {
      const abort = abortOnSignal();
      try {
        const given = { files, node: o.node };
        const input = logsInputFits(given)
          ? given
          : parseFlags('logs', (await import('../../ops/analyze-logs-input.js')).analyzeLogsInputSchema, given, { files: '<files>' });
        const r = await analyzeLogFiles(input.files, { ...(input.node ? { node: input.node } : {}), signal: abort.signal });
        if (o.json) printJson(r);
        else
          printText(
            `${summariseParsed('logs', r.facts)}\n\n${r.findings.length ? r.findings.map(renderFinding).join('\n') : 'No findings in these logs.'}\n\nChecked:\n${renderChecked(r.checked)}`,
          );
        if (r.findings.some((f) => f.severity === 'critical')) process.exitCode = 1;
      } catch (e) {
        failWith(e, o);
      } finally {
        abort.dispose();
      }
    });
}
