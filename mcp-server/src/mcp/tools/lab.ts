import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { labStatus, startLab, stopLab } from '../../lab/index.js';
import { renderLabStatus } from '../../render/lab.js';
import { assertWipeConfirmed, labStartInputSchema, labStatusInputSchema, labStopInputSchema } from '../../ops/lab.js';
import { mcpProgress } from '../progress.js';
import { toolError, toolResult } from '../tool-result.js';
import { annotationsFor } from './annotations.js';

const labNode = z.object({
  index: z.number(),
  host: z.string(),
  cqlPort: z.number(),
  jmxPort: z.number(),
  pid: z.number().nullable(),
  dir: z.string(),
  logFile: z.string(),
  datacenter: z.string(),
  rack: z.string(),
  alive: z.boolean(),
  cqlUp: z.boolean(),
});

/** What a client of a secured lab needs: which protections are on and the files to point at (never a password). */
const labSecurity = z.object({
  auth: z.boolean(),
  tls: z.boolean(),
  jmxAuth: z.boolean(),
  cqlshrc: z.string().describe('CQL_TUNER_CQLSHRC for the least-privilege role'),
  benchCqlshrc: z.string().nullable().describe('CQL_TUNER_CQLSHRC for stress runs (role with CREATE ON ALL KEYSPACES)'),
  jmxUser: z.string().nullable(),
  jmxPasswordFile: z.string().nullable(),
});

const labStatusOutput = {
  running: z.boolean(),
  version: z.string().nullable(),
  datacenters: z.number().nullable(),
  nodes: z.array(labNode),
  security: labSecurity.nullable(),
};

async function statusReport() {
  const s = await labStatus();
  const sec = s.state?.security;
  const security = sec
    ? {
        auth: sec.auth,
        tls: sec.tls,
        jmxAuth: sec.jmxAuth,
        cqlshrc: sec.cqlshrc,
        benchCqlshrc: sec.benchCqlshrc ?? null,
        jmxUser: sec.jmxUser,
        jmxPasswordFile: sec.jmxPasswordFile,
      }
    : null;
  return { running: s.running, version: s.state?.fullVersion ?? null, datacenters: s.state?.datacenters ?? null, nodes: s.nodes, security };
}

/** The status text, plus for a secured lab the settings the server's environment needs to reach it. */
function statusText(report: Awaited<ReturnType<typeof statusReport>>): string {
  const sec = report.security;
  if (!sec) return renderLabStatus(report);
  const on = [sec.auth ? 'auth' : '', sec.tls ? 'TLS' : '', sec.jmxAuth ? 'JMX auth' : ''].filter(Boolean).join(', ');
  const jmx = sec.jmxPasswordFile ? ` CQL_TUNER_JMX_USERNAME=${sec.jmxUser} CQL_TUNER_JMX_PASSWORD_FILE=${sec.jmxPasswordFile}` : '';
  return (
    `${renderLabStatus(report)}\n\nSecured (${on}). Credentials are never tool arguments: the user sets, in the environment of the ` +
    `cql-tuner server, CQL_TUNER_CQLSHRC=${sec.cqlshrc}${jmx}${sec.benchCqlshrc ? ` (stress runs: CQL_TUNER_CQLSHRC=${sec.benchCqlshrc})` : ''}.`
  );
}

export function registerLabTools(server: McpServer): void {
  server.registerTool(
    'lab_start',
    {
      title: 'Start a local real Cassandra lab',
      description:
        'Starts Apache Cassandra (jars from Maven Central, cached per user) as 1 node on 127.0.0.1 or 3 nodes on 127.0.0.1–3 ' +
        '(CQL 9042, JMX 7199/7299/7399) and waits until CQL answers. datacenters: 2 (with nodes: 3) makes a real multi-DC ' +
        'cluster: nodes 1–2 in datacenter1, node 3 in datacenter2 (GossipingPropertyFileSnitch). Loopback only. ' +
        'Takes ~10–60 s per node (first run also downloads ~70 MB). auth / tls / jmxAuth start a production-shaped lab: ' +
        'PasswordAuthenticator with a least-privilege role cql_tuner, client (and internode) TLS with a lab CA made by keytool, ' +
        'JMX password files; the result names the cqlshrc and JMX password file the user must put in the server environment.',
      inputSchema: labStartInputSchema,
      outputSchema: labStatusOutput,
      annotations: annotationsFor('lab_start'),
    },
    async (args, extra) => {
      try {
        await startLab({ ...args, onProgress: mcpProgress(extra), signal: extra.signal });
        const report = await statusReport();
        return toolResult(statusText(report), report);
      } catch (e) {
        return toolError(e);
      }
    },
  );

  server.registerTool(
    'lab_status',
    {
      title: 'Local lab status',
      description: 'Shows the local lab nodes: PID, whether the process is alive and whether CQL answers.',
      inputSchema: labStatusInputSchema,
      outputSchema: labStatusOutput,
      annotations: annotationsFor('lab_status'),
    },
    async () => {
      try {
        const report = await statusReport();
        return toolResult(statusText(report), report);
      } catch (e) {
        return toolError(e);
      }
    },
  );

  server.registerTool(
    'lab_stop',
    {
      title: 'Stop the local lab',
      description:
        'Stops the lab’s Cassandra processes by the PIDs it recorded (never anything else). With wipe: true (needs confirm: true) it also deletes the lab’s data directories and, for a secured lab, its secrets (CA, key stores, passwords; the next start makes new ones at the same paths).',
      inputSchema: labStopInputSchema,
      outputSchema: { stopped: z.array(z.number()), wiped: z.boolean() },
      annotations: annotationsFor('lab_stop'),
    },
    async (args, extra) => {
      try {
        assertWipeConfirmed(args, { confirm: 'confirm: true', wipe: 'wipe: true' });
        const res = await stopLab({ onProgress: mcpProgress(extra), wipe: args.wipe });
        const report = { stopped: res.stopped, wiped: args.wipe };
        return toolResult(
          res.stopped.length ? `Stopped PIDs ${res.stopped.join(', ')}${args.wipe ? ' and wiped data' : ''}.` : 'No lab process was running.',
          report,
        );
      } catch (e) {
        return toolError(e);
      }
    },
  );
}
