/**
 * A real Prometheus that asks for basic auth on its API (--web.config.file): the credentials configured in the
 * environment reach it as the Authorization header and nothing else does; a missing or wrong password is a clear
 * PROMETHEUS_AUTH error whose fix names the variables and never prints the password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prometheusFromEnv } from '../../mcp-server/src/collect/metrics/prometheus.js';
import { metricsWindow } from '../../mcp-server/src/ops/metrics.js';
import { NODE_EXPORTER_BIN, PROMETHEUS_BIN, PROMETHEUS_MISSING, startNodeExporter, startPrometheus, type Running } from '../helpers/prometheus.js';

const have = PROMETHEUS_BIN !== null && NODE_EXPORTER_BIN !== null;
if (!have) process.stderr.write(`note: ${PROMETHEUS_MISSING}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A test-only password and its bcrypt hash (cost 4, made with Python's bcrypt 5): Prometheus' web config takes hashes only.
const AUTH = { user: 'cql_tuner', password: 'lab-metrics-pass', bcrypt: '$2b$04$VZ13ctfLX6UGi9tvCP3PweDQ7BHTwiOM2cm4YacOyQlzZZzZKxexa' };

describe.skipIf(!have)('metrics window on a real Prometheus that requires basic auth', () => {
  let exporter: Running;
  let prom: Running;

  beforeAll(async () => {
    exporter = await startNodeExporter();
    prom = await startPrometheus([{ name: 'node', targets: [`127.0.0.1:${exporter.port}`] }], 1, { basicAuth: AUTH });
    // Prometheus hands targets to its scrapers some seconds after start (discovery updates are batched): wait for
    // two samples of node_cpu_seconds_total, asked with the right credentials.
    const headers = { authorization: `Basic ${Buffer.from(`${AUTH.user}:${AUTH.password}`).toString('base64')}` };
    const until = Date.now() + 60_000;
    for (;;) {
      const q = encodeURIComponent('count_over_time(node_cpu_seconds_total[1m])');
      const body = (await (await fetch(`${prom.url}/api/v1/query?query=${q}`, { headers })).json()) as { data: { result: { value: [number, string] }[] } };
      if (Number(body.data.result[0]?.value[1] ?? 0) >= 2) break;
      if (Date.now() > until) throw new Error('Prometheus did not scrape the node exporter within 60 s');
      await sleep(500);
    }
  }, 90_000);

  afterAll(async () => {
    await prom?.stop();
    await exporter?.stop();
  });

  it('the server really refuses a request without credentials (HTTP 401)', async () => {
    expect((await fetch(`${prom.url}/api/v1/query?query=up`)).status).toBe(401);
  });

  it('without credentials: PROMETHEUS_AUTH, and the fix says which variables to set', async () => {
    const cfg = prometheusFromEnv({ CQL_TUNER_PROMETHEUS_URL: prom.url });
    await expect(metricsWindow({ last: '1m' }, { prometheus: cfg })).rejects.toMatchObject({
      code: 'PROMETHEUS_AUTH',
      message: expect.stringMatching(/HTTP 401/),
      fix: expect.stringMatching(/It needs credentials: set CQL_TUNER_PROMETHEUS_TOKEN, or CQL_TUNER_PROMETHEUS_USER and _PASSWORD/),
    });
  });

  it('a wrong password: PROMETHEUS_AUTH naming the variables to check, and the password is not in the error', async () => {
    const cfg = prometheusFromEnv({ CQL_TUNER_PROMETHEUS_URL: prom.url, CQL_TUNER_PROMETHEUS_USER: AUTH.user, CQL_TUNER_PROMETHEUS_PASSWORD: 'not-it-9f3a' });
    const err = await metricsWindow({ last: '1m' }, { prometheus: cfg }).then(
      () => null,
      (e: unknown) => e as { code: string; message: string; fix: string },
    );
    expect(err).toMatchObject({ code: 'PROMETHEUS_AUTH', fix: expect.stringMatching(/Check .*CQL_TUNER_PROMETHEUS_USER/) });
    expect(JSON.stringify(err)).not.toContain('not-it-9f3a');
  });

  it('the right user and password from the environment: the window is read', async () => {
    const cfg = prometheusFromEnv({ CQL_TUNER_PROMETHEUS_URL: prom.url, CQL_TUNER_PROMETHEUS_USER: AUTH.user, CQL_TUNER_PROMETHEUS_PASSWORD: AUTH.password });
    const r = await metricsWindow({ last: '1m' }, { prometheus: cfg });
    expect(r.exporters).toEqual(['node']);
    expect(r.nodes.map((n) => n.node)).toEqual(['127.0.0.1']);
    expect(r.source).toBe(prom.url);
  });

  it('a user and password in the URL itself are refused before any request (they would be printed)', () => {
    const u = new URL(prom.url);
    u.username = AUTH.user;
    u.password = AUTH.password;
    expect(() => prometheusFromEnv({ CQL_TUNER_PROMETHEUS_URL: u.toString() })).toThrow(/carries a user or password/);
  });
});
