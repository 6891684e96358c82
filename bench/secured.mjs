// Snapshot time of a secured 3-node lab (auth + client/internode TLS + JMX auth, the least-privilege role) next to
// the open one, in the same run, through the built CLI as a user runs it. Goal: TLS and auth cost little (≤ 1.5×).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../mcp-server/dist/cql-tuner.js', import.meta.url));
const run = (args, env) => execFileSync(process.execPath, [cli, ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 });

/** Median wall time of `n` CLI snapshots of the running lab, after one warm-up. */
function snapshots(env, n = 5) {
  run(['snapshot', '--lab', '--json'], env);
  const ms = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const out = JSON.parse(run(['snapshot', '--lab', '--json'], env));
    ms.push(performance.now() - t0);
    if (out.error || out.nodes?.some((x) => x.status !== 'complete')) throw new Error(`snapshot not complete: ${JSON.stringify(out).slice(0, 400)}`);
  }
  return ms.sort((a, b) => a - b)[Math.floor(n / 2)];
}

async function labRun(extraArgs) {
  const home = mkdtempSync(join(tmpdir(), 'cql-tuner-bench-sec-'));
  const base = { ...process.env, CQL_TUNER_HOME: home };
  try {
    run(['lab', 'start', '--nodes', '3', '--version', '5.0', ...extraArgs], base);
    const st = JSON.parse(run(['lab', 'status', '--json'], base));
    const sec = st.security;
    const env = sec
      ? {
          ...base,
          CQL_TUNER_CQLSHRC: sec.cqlshrc,
          ...(sec.jmxPasswordFile ? { CQL_TUNER_JMX_USERNAME: sec.jmxUser, CQL_TUNER_JMX_PASSWORD_FILE: sec.jmxPasswordFile } : {}),
        }
      : base;
    return snapshots(env);
  } finally {
    try {
      run(['lab', 'stop', '--wipe', '--yes'], base);
    } catch {
      /* reported by the caller's failure */
    }
    rmSync(home, { recursive: true, force: true });
  }
}

export async function benchSecured() {
  process.stderr.write('bench: an open and a secured 3-node lab, one after the other (≈ 3 min)…\n');
  const open = await labRun([]);
  const secured = await labRun(['--auth', '--tls', '--jmx-auth']);
  const ratio = secured / open;
  return {
    name: 'Snapshot of a secured 3-node lab (auth, client + internode TLS, JMX auth, role cql_tuner) vs the open lab',
    lines: [
      `open lab, CLI snapshot --lab, median of 5: ${open.toFixed(0)} ms`,
      `secured lab, same: ${secured.toFixed(0)} ms`,
      `ratio secured / open: ${ratio.toFixed(2)}× (goal ≤ 1.5×: ${ratio <= 1.5 ? 'met' : 'NOT met'})`,
    ],
    ok: ratio <= 1.5,
  };
}
