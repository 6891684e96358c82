import { resolve } from 'node:path';
import { Command } from 'commander';
import { withCommandLineHosts } from '../../collect/credential-hosts.js';
import { reviewSchema, reviewSchemaInputSchema } from '../../ops/review-schema.js';
import { renderSchemaReview } from '../../render/schema-review.js';
import { abortOnSignal } from '../abort-on-signal.js';
import { failWith, printJson, printText } from '../output.js';
import { cliList, cliNumber, parseFlags } from '../validate-flags.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

interface ReviewSchemaFlags {
  hosts?: string;
  lab?: boolean;
  cqlPort?: string;
  bundle?: string;
  product?: string;
  detail?: boolean;
  json?: boolean;
  cqlshrc?: string;
}

export function reviewSchemaCommand(): Command {
  return new Command('review-schema')
    .description('review a CQL schema: DESCRIBE output from a file (or - for stdin), or a live cluster with --hosts / --lab')
    .argument('[file]', 'DESCRIBE SCHEMA output, or - for standard input')
    .option('--hosts <list>', 'live cluster contact points, comma-separated (server-side DESCRIBE, 4.0+)')
    .option('--lab', 'use the running local lab')
    .option('--cql-port <n>', 'native transport port')
    .option('--bundle <dir>', 'snapshot bundle for per-table sizes, tombstones and read/write counts')
    .option('--product <p>', 'cassandra or scylla (default: inferred)')
    .option('--detail', 'show info findings too')
    .option('--json', 'print the review as JSON')
    .option('--cqlshrc <path>', 'cqlshrc with the CQL login and TLS settings (default $CQL_TUNER_CQLSHRC, else ~/.cassandra/cqlshrc)')
    .action(async (file: string | undefined, o: ReviewSchemaFlags) => {
      const abort = abortOnSignal();
      try {
        // The user's own flag, trusted like the variable it sets for this run (collect/cql-credentials.ts).
        if (o.cqlshrc) process.env.CQL_TUNER_CQLSHRC = resolve(o.cqlshrc);
        const input = parseFlags(
          'review-schema',
          reviewSchemaInputSchema,
          {
            ...(file === '-' ? {} : { file }),
            hosts: cliList(o.hosts),
            lab: o.lab === true ? true : undefined,
            cqlPort: cliNumber(o.cqlPort),
            bundleDir: o.bundle,
            product: o.product,
            detail: o.detail === true,
          },
          { file: '[file]', bundleDir: '--bundle' },
        );
        const { detail, ...spec } = input;
        // Standard input is added after the check: the tool's text limit bounds one JSON-RPC message, and piped
        // input has no such message (the operation caps a schema at 32 MiB itself).
        if (file === '-') spec.text = await readStdin();
        const hosts = spec.hosts ?? [];
        // --hosts is the user's own flag: the password may go to those hosts for this run.
        const r = await withCommandLineHosts(hosts, () => reviewSchema(spec, { signal: abort.signal }));
        if (o.json) printJson(r);
        else printText(renderSchemaReview(r, { detail }));
        if (r.findings.some((f) => f.severity === 'critical')) process.exitCode = 1;
      } catch (e) {
        failWith(e, o);
      } finally {
        abort.dispose();
      }
    });
}
