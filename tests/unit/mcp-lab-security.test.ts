/**
 * lab_start / lab_status over MCP (in-process) for a secured lab (issue #20): the security switches are plain
 * booleans (nothing else is accepted), and the status names the files a client needs, never a password.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectInProcess } from '../helpers/mcp-client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labPaths, nodeDirFor } from '../../mcp-server/src/lab/paths.js';
import { writeLabState } from '../../mcp-server/src/lab/state.js';

const home = mkdtempSync(join(tmpdir(), 'cql-tuner-mcp-lab-sec-'));
const saved = process.env.CQL_TUNER_HOME;
let client: Client;

beforeAll(async () => {
  process.env.CQL_TUNER_HOME = home;
  client = await connectInProcess('mcp-lab-security-test');
});
afterAll(async () => {
  await client.close();
  if (saved === undefined) delete process.env.CQL_TUNER_HOME;
  else process.env.CQL_TUNER_HOME = saved;
  rmSync(home, { recursive: true, force: true });
});

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content?: { type: string; text?: string }[] };

describe('lab tools and a secured lab', () => {
  it('lab_start takes auth / tls / jmxAuth as booleans only: a string is refused before any lab is touched', async () => {
    const tools = await client.listTools();
    const props = (tools.tools.find((t) => t.name === 'lab_start')!.inputSchema as { properties: Record<string, { type?: string; default?: unknown }> })
      .properties;
    for (const k of ['auth', 'tls', 'jmxAuth']) expect(props[k], k).toMatchObject({ type: 'boolean', default: false });
    const r = (await client.callTool({ name: 'lab_start', arguments: { auth: '/etc/passwd' } })) as Result;
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toMatch(/auth/);
  });

  it('lab_status of a secured lab names the cqlshrc files and JMX password file to set, and no password', async () => {
    const { stateDir } = labPaths();
    const secrets = join(stateDir, 'secrets');
    await writeLabState({
      version: '5.0',
      fullVersion: '5.0.9',
      nodes: [
        {
          index: 1,
          host: '127.0.5.1',
          cqlPort: 9042,
          jmxPort: 7199,
          pid: null,
          dir: nodeDirFor(stateDir, 1),
          logFile: 'x',
          datacenter: 'datacenter1',
          rack: 'rack1',
        },
      ],
      heap: '512M',
      datacenters: 1,
      startedAt: '2026-11-24T00:00:00Z',
      stateDir,
      security: {
        auth: true,
        tls: true,
        clientCertAuth: false,
        jmxAuth: true,
        secretsDir: secrets,
        cqlshrc: join(secrets, 'cqlshrc'),
        toolRole: 'cql_tuner',
        benchRole: 'cql_tuner_bench',
        benchCqlshrc: join(secrets, 'cqlshrc.bench'),
        caPem: join(secrets, 'ca.pem'),
        jmxUser: 'cql_tuner_jmx',
        jmxPasswordFile: join(secrets, 'jmx-client.password'),
      },
    });
    const r = (await client.callTool({ name: 'lab_status', arguments: {} })) as Result;
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent?.security).toEqual({
      auth: true,
      tls: true,
      jmxAuth: true,
      cqlshrc: join(secrets, 'cqlshrc'),
      benchCqlshrc: join(secrets, 'cqlshrc.bench'),
      jmxUser: 'cql_tuner_jmx',
      jmxPasswordFile: join(secrets, 'jmx-client.password'),
    });
    const text = r.content?.map((c) => c.text ?? '').join('\n') ?? '';
    expect(text).toContain(`CQL_TUNER_CQLSHRC=${join(secrets, 'cqlshrc')}`);
    expect(text).toContain('CQL_TUNER_JMX_PASSWORD_FILE=');
  });
});
