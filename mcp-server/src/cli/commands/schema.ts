import { resolve } from 'node:path';
import { Command } from 'commander';
import { withCommandLineHosts } from '../../collect/credential-hosts.js';
import { renderSchemaReview, reviewSchema } from '../../ops/review-schema.js';
import { abortOnSignal } from '../abort-on-signal.js';
import { failWith, printJson, printText } from '../output.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

interface ReviewSchemaFlags {
  hosts?: string;
  lab?: boolean;
  cqlPort?: number;
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
    .option('--cql-port <n>', 'native transport port', (v: string) => Number(v))
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
        if (o.product !== undefined && o.product !== 'cassandra' && o.product !== 'scylla') {
          throw Object.assign(new Error(`--product ${o.product}`), { code: 'BAD_ARGUMENT', fix: 'Use --product cassandra or --product scylla.' });
        }
        const hosts = o.hosts ? o.hosts.split(',').map((h) => h.trim()).filter(Boolean) : [];
        const input = {
          ...(file === '-' ? { text: await readStdin() } : file !== undefined ? { file } : {}),
          ...(hosts.length ? { hosts } : {}),
          ...(o.lab ? { lab: true } : {}),
          ...(o.cqlPort !== undefined ? { cqlPort: o.cqlPort } : {}),
          ...(o.bundle ? { bundleDir: o.bundle } : {}),
          ...(o.product ? { product: o.product as 'cassandra' | 'scylla' } : {}),
        };
        // --hosts is the user's own flag: the password may go to those hosts for this run.
        const r = await withCommandLineHosts(hosts, () => reviewSchema(input, { signal: abort.signal }));
        if (o.json) printJson(r);
        else printText(renderSchemaReview(r, { detail: o.detail === true }));
        if (r.findings.some((f) => f.severity === 'critical')) process.exitCode = 1;
      } catch (e) {
        failWith(e, o);
      } finally {
        abort.dispose();
      }
    });
}
