import { Command, Option } from 'commander';
import { z } from 'zod';
import { labStatus, startLab, stopLab } from '../../lab/index.js';
import { LAB_HEADERS, labRows } from '../../render/lab.js';
import { failWith, printJson, printText, terminalTable } from '../output.js';
import { abortOnSignal } from '../abort-on-signal.js';
import { progressLine } from '../progress-line.js';
import { labIncidentCommand } from './lab-incident.js';
import { assertWipeConfirmed, labStartInputSchema, labStopInputSchema } from '../../ops/lab.js';
import { parseFlags } from '../validate-flags.js';

/**
 * lab start takes more than the lab_start tool: client certificates, JMX over SSL and the metrics agent are the
 * user's choices at a terminal (the tool keeps to the common set). The heap stays any size the lab itself reads
 * (1g, 512MB): the lab checks it (BAD_HEAP), where the tool's schema asks for the plain 512M / 1G form.
 */
const labStartCliSchema = labStartInputSchema.extend({
  heap: z.string().max(32).default('512M'),
  clientCertAuth: z.boolean().default(false),
  jmxSsl: z.boolean().default(false),
  metrics: z.boolean().default(false),
});

async function showStatus(json: boolean | undefined): Promise<void> {
  const s = await labStatus();
  const view = {
    running: s.running,
    version: s.state?.fullVersion ?? null,
    datacenters: s.state?.datacenters ?? null,
    nodes: s.nodes,
    security: s.state?.security ?? null,
  };
  if (json) return printJson(view);
  if (!s.nodes.length) return printText('No lab is running. Start one with `cql-tuner lab start`.');
  const dcs = view.datacenters === 2 ? ', 2 datacenters' : '';
  const sec = view.security;
  let secured = '';
  if (sec) {
    const on = [
      sec.auth ? `auth (role ${sec.toolRole})` : '',
      sec.tls ? `TLS${sec.clientCertAuth ? ' + client certs' : ''}` : '',
      sec.jmxAuth ? `JMX auth (user ${sec.jmxUser})` : '',
      sec.jmxSsl ? 'JMX over SSL' : '',
    ];
    const jmx = sec.jmxPasswordFile ? ` CQL_TUNER_JMX_USERNAME=${sec.jmxUser} CQL_TUNER_JMX_PASSWORD_FILE=${sec.jmxPasswordFile}` : '';
    const bench = sec.benchCqlshrc ? `\nStress runs (role ${sec.benchRole}): CQL_TUNER_CQLSHRC=${sec.benchCqlshrc}` : '';
    secured = `\nSecured: ${on.filter(Boolean).join(', ')}\nClient settings: CQL_TUNER_CQLSHRC=${sec.cqlshrc}${jmx}${bench}`;
  }
  const m = s.state?.metrics;
  const metrics = m ? `\nMetrics: http://<node address>:${m.port}/metrics (${m.agent})` : '';
  printText(
    `Cassandra ${view.version ?? '?'} lab${dcs} (state in ${s.state?.stateDir ?? '?'})\n${terminalTable(LAB_HEADERS, labRows(view))}${secured}${metrics}`,
  );
}

interface LabStartFlags {
  nodes: string;
  version: string;
  dcs: string;
  heap: string;
  json?: boolean;
  auth?: boolean;
  tls?: boolean;
  clientCert?: boolean;
  jmxAuth?: boolean;
  jmxSsl?: boolean;
  metrics?: boolean;
}

export function labCommand(): Command {
  const lab = new Command('lab').description('a local real Cassandra (1 or 3 nodes on 127.0.0.1–3, optionally in 2 datacenters) for demos and tests');
  lab
    .command('start')
    .description('resolve Cassandra from Maven Central (cached), start the nodes and wait for CQL')
    .addOption(new Option('--nodes <n>', 'number of nodes').choices(['1', '3']).default('1'))
    .addOption(new Option('--version <v>', 'Cassandra line').choices(['5.0', '4.1']).default('5.0'))
    .addOption(
      new Option('--dcs <n>', 'datacenters: 2 puts nodes 1–2 in datacenter1 and node 3 in datacenter2 (needs --nodes 3)').choices(['1', '2']).default('1'),
    )
    .option('--heap <size>', 'heap per node, e.g. 512M or 1G', '512M')
    .option('--auth', 'PasswordAuthenticator + CassandraAuthorizer, a set-up superuser and a least-privilege role cql_tuner')
    .option('--tls', 'client TLS (internode too with --nodes 3), CA and node certificates made by keytool in the lab dir')
    .option('--client-cert', 'with --tls: require a client certificate signed by the lab CA')
    .option('--jmx-auth', 'JMX password and access files, as cassandra-env.sh sets them')
    .option('--jmx-ssl', 'JMX over SSL with the node certificates (nodetool then needs --ssl: CQL_TUNER_JMX_SSL=1)')
    .option('--metrics', 'each node serves Prometheus metrics on <address>:7070 (the JMX exporter java agent from Maven Central)')
    .option('--json', 'print the lab status as JSON')
    .action(async (o: LabStartFlags) => {
      const progress = progressLine();
      const abort = abortOnSignal();
      try {
        const input = parseFlags(
          'lab start',
          labStartCliSchema,
          {
            nodes: Number(o.nodes),
            datacenters: Number(o.dcs),
            version: o.version,
            heap: o.heap,
            auth: o.auth === true,
            tls: o.tls === true,
            clientCertAuth: o.clientCert === true,
            jmxAuth: o.jmxAuth === true,
            jmxSsl: o.jmxSsl === true,
            metrics: o.metrics === true,
          },
          { datacenters: '--dcs', clientCertAuth: '--client-cert' },
        );
        await startLab({
          ...input,
          onProgress: progress,
          signal: abort.signal,
        });
        progress.done();
        await showStatus(o.json);
      } catch (e) {
        progress.done();
        failWith(e, o);
      } finally {
        abort.dispose();
      }
    });
  lab
    .command('status')
    .description('show the lab nodes, their PIDs and whether CQL answers')
    .option('--json', 'print as JSON')
    .action(async (o: { json?: boolean }) => {
      try {
        await showStatus(o.json);
      } catch (e) {
        failWith(e, o);
      }
    });
  lab
    .command('stop')
    .description('stop the lab nodes by their recorded PIDs')
    .option('--wipe', 'also delete the lab data directories and the secrets of a secured lab (CA, key stores, passwords; needs --yes)')
    .option('--yes', 'confirm --wipe')
    .option('--json', 'print as JSON')
    .action(async (o: { wipe?: boolean; yes?: boolean; json?: boolean }) => {
      const progress = progressLine();
      try {
        const input = parseFlags('lab stop', labStopInputSchema, { wipe: o.wipe === true, confirm: o.yes === true }, { confirm: '--yes' });
        assertWipeConfirmed(input, { confirm: '--yes', wipe: '--wipe' });
        const res = await stopLab({ onProgress: progress, wipe: input.wipe });
        progress.done();
        const wiped = o.wipe ? '; data and secrets wiped' : '';
        if (o.json) printJson({ stopped: res.stopped, wiped: o.wipe === true });
        else printText(res.stopped.length ? `Stopped PIDs ${res.stopped.join(', ')}${wiped}.` : 'No lab process was running.');
      } catch (e) {
        progress.done();
        failWith(e, o);
      }
    });
  lab.addCommand(labIncidentCommand());
  return lab;
}
