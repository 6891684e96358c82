// `interpret` apart from diagnose.ts: it reads a file or stdin, so it must not load the collectors `diagnose` needs.
import { Command } from 'commander';
import { interpretText } from '../../ops/interpret.js';
import { interpretInputSchema, interpretSource } from '../../ops/interpret-input.js';
import { parseFlags } from '../validate-flags.js';
import { renderInterpret } from '../../render/interpret.js';
import { failWith, printJson, printText } from '../output.js';

export function interpretCommand(): Command {
  return new Command('interpret')
    .description('detect the kind of a saved or pasted output (file, or - for stdin), parse it and run the rules')
    .argument('<file>', 'a file, or - to read standard input')
    .option('--json', 'print the report as JSON')
    .action(async (file: string, o: { json?: boolean }) => {
      try {
        // The MCP tool's schema checks the path here too; stdin is the CLI's own (no path to check).
        const text =
          file === '-' ? await readStdin() : await interpretSource(parseFlags('interpret', interpretInputSchema, { path: file }, { path: '<file>' }));
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
