import { Command } from 'commander';
import { listIncidents, runIncident } from '../../lab/incidents/index.js';
import { failWith, printJson, printText, terminalTable } from '../output.js';
import { progressLine } from '../progress-line.js';
import { labIncidentInputSchema } from '../../ops/lab.js';
import { parseFlags } from '../validate-flags.js';

/** `cql-tuner lab incident <name> [--heal] [--list]`: put a known problem into the local lab, or undo it. */
export function labIncidentCommand(): Command {
  return new Command('incident')
    .description('put a known problem into the running local lab (lab data only), or undo it with --heal; --list shows them')
    .argument('[name]', 'incident name (see --list)')
    .option('--heal', 'undo the incident')
    .option('--list', 'list the incidents and whether this host can run each')
    .option('--json', 'print as JSON')
    .action(async (name: string | undefined, o: { heal?: boolean; list?: boolean; json?: boolean }) => {
      const progress = progressLine();
      try {
        const input = parseFlags('lab incident', labIncidentInputSchema, { name, heal: o.heal === true, list: o.list === true }, { name: '[name]' });
        if (input.list || !input.name) {
          const rows = await listIncidents();
          if (o.json) return printJson({ incidents: rows });
          return printText(
            terminalTable(
              ['incident', 'nodes', 'diagnose should find', 'runs here'],
              rows.map((r) => [`${r.name}\n${r.title}`, String(r.nodes), r.expect.join('\n'), r.skipReason ?? 'yes']),
            ),
          );
        }
        const r = await runIncident(input.name, { heal: input.heal, onProgress: progress });
        progress.done();
        if (o.json) return printJson(r);
        const took = `${r.incident} (${r.title}) in ${(r.durationMs / 1000).toFixed(1)}s.`;
        if (r.action === 'heal') return printText(`Healed ${took}`);
        printText(
          `Injected ${took} Now run \`cql-tuner diagnose --lab\`; expected on top: ${r.expect.join(' or ')}. ` +
            `Undo with \`cql-tuner lab incident ${r.incident} --heal\`.`,
        );
      } catch (e) {
        progress.done();
        failWith(e, o);
      }
    });
}
