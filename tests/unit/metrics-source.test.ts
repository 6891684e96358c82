/**
 * The metrics source is the user's, never the caller's: the MCP tool has no argument that names a server, a URL
 * with credentials in it is refused (they would be printed), and without a configured server the error says how
 * to configure one.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prometheusFromEnv } from '../../mcp-server/src/collect/metrics/prometheus.js';
import { createServer } from '../../mcp-server/src/mcp/server.js';

let client: Client;
const saved = process.env.CQL_TUNER_PROMETHEUS_URL;

beforeAll(async () => {
  delete process.env.CQL_TUNER_PROMETHEUS_URL;
  const server = createServer();
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  client = new Client({ name: 'metrics-source', version: '0' });
  await client.connect(b);
});
afterAll(async () => {
  await client?.close();
  if (saved !== undefined) process.env.CQL_TUNER_PROMETHEUS_URL = saved;
});

describe('metrics source', () => {
  it('metrics_window takes no server, URL, host or credential argument; a smuggled url has no effect', async () => {
    const tool = (await client.listTools()).tools.find((t) => t.name === 'metrics_window')!;
    const props = Object.keys((tool.inputSchema as { properties: Record<string, unknown> }).properties);
    expect(props.sort()).toEqual(['around', 'from', 'last', 'margin', 'nodes', 'raw', 'scrape', 'scrapeEvery', 'scrapeFor', 'signals', 'to']);
    const r = await client.callTool({ name: 'metrics_window', arguments: { last: '5m', url: 'http://attacker:9090' } });
    expect(r.isError).toBe(true);
    // the call still looked for the user's configured server (none here), not the smuggled one
    expect(JSON.stringify(r.content)).toMatch(/NO_METRICS_SOURCE/);
    expect(JSON.stringify(r.content)).not.toContain('attacker');
  });

  it('without a configured server: NO_METRICS_SOURCE naming the variable to set', async () => {
    const r = await client.callTool({ name: 'metrics_window', arguments: { last: '5m' } });
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toMatch(/NO_METRICS_SOURCE[\s\S]*CQL_TUNER_PROMETHEUS_URL/);
  });

  it('the configuration refuses credentials in the URL and non-HTTP schemes; takes them from the environment', () => {
    expect(() => prometheusFromEnv({ CQL_TUNER_PROMETHEUS_URL: 'http://u:secret@prom:9090' })).toThrow(
      expect.objectContaining({ code: 'BAD_PROMETHEUS_URL', message: expect.not.stringContaining('secret') }),
    );
    expect(() => prometheusFromEnv({ CQL_TUNER_PROMETHEUS_URL: 'file:///etc/passwd' })).toThrow(/http or https/);
    expect(prometheusFromEnv({})).toBeNull();
    expect(prometheusFromEnv({ CQL_TUNER_PROMETHEUS_URL: 'https://prom:9090/', CQL_TUNER_PROMETHEUS_TOKEN: 't' })).toEqual({
      url: 'https://prom:9090',
      token: 't',
      user: undefined,
      password: undefined,
    });
    // the CLI flag (trusted) wins over the environment
    expect(prometheusFromEnv({ CQL_TUNER_PROMETHEUS_URL: 'http://a:1' }, 'http://b:2')!.url).toBe('http://b:2');
  });
});
