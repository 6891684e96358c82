// Stress runner overhead: the same latte workload run directly and through run_stress (MCP, background job,
// output straight to files), alternated on a real 1-node lab, measured in one run. Throughput is compared
// against its own run-to-run noise; the goal (≤ 1 %) is on what the runner itself costs: its CPU against latte's.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const bundle = fileURLToPath(new URL('../mcp-server/dist/cql-tuner.js', import.meta.url));
const ROUNDS = Number(process.env.BENCH_STRESS_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_STRESS_SECONDS ?? 20);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function latteReport(reportPath) {
  const r = JSON.parse(readFileSync(reportPath, 'utf8')).result;
  const t = r.cycle_throughput;
  return { throughput: typeof t === 'number' ? t : t.value, cpuS: r.cpu_time_s };
}

/** CPU seconds (user + system) a process has used so far, from /proc (clock ticks of 100 Hz on Linux). */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

export async function benchStressOverhead() {
  const name = `Stress runner overhead: latte direct vs run_stress (1-node lab, ${ROUNDS} × ${SECONDS} s each, alternated)`;
  const latte = process.env.CQL_TUNER_LATTE ?? join(homedir(), '.cache', 'cql-tuner', 'latte-0.29.0', 'bin', 'latte');
  if (!existsSync(latte))
    return {
      name,
      lines: [`skipped: latte not found at ${latte} (install: cargo install latte-cli --version 0.29.0 --locked --root ~/.cache/cql-tuner/latte-0.29.0)`],
      ok: true,
    };
  const home = mkdtempSync(join(tmpdir(), 'cql-tuner-bench-stress-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bundle, 'mcp'],
    env: { ...process.env, CQL_TUNER_HOME: home, CQL_TUNER_LATTE: latte },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  const call = async (tool, args) => {
    const res = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 600_000, resetTimeoutOnProgress: true });
    if (res.isError) throw new Error(`${tool} failed: ${JSON.stringify(res.content)}`);
    return res.structuredContent;
  };
  const params = {
    tool: 'latte',
    workload: 'write',
    nodes: ['127.0.0.1'],
    durationS: SECONDS,
    threads: 1,
    concurrency: 32,
    population: { distribution: 'uniform', size: 100000 },
    snapshots: 'none',
  };
  try {
    process.stderr.write('bench: starting a 1-node lab…\n');
    await call('lab_start', { nodes: 1, version: '5.0' });
    // Warm-up (schema, JIT, memtables) through the runner; its argv.json gives the exact direct command.
    const warm = await call('run_stress', { ...params, wait: true });
    const argv = JSON.parse(readFileSync(join(warm.dir, 'argv.json'), 'utf8')).steps.find((s) => s.name === 'run').argv;
    const direct = [];
    const viaRunner = [];
    const wall = [];
    const serverCpu = [];
    const latteCpu = [];
    const runDirect = (i) => {
      const out = join(home, `direct-${i}.json`);
      const args = argv.slice(1).map((a, k, all) => (all[k - 1] === '-o' ? out : a));
      const r = spawnSync(argv[0], args, { cwd: home, stdio: ['ignore', 'ignore', 'ignore'] });
      if (r.status !== 0) throw new Error(`direct latte exited ${r.status}`);
      direct.push(latteReport(out).throughput);
    };
    const runRunner = async () => {
      const t1 = performance.now();
      const cpu0 = cpuSeconds(transport.pid);
      const run = await call('run_stress', { ...params, wait: true });
      serverCpu.push(cpuSeconds(transport.pid) - cpu0);
      const rep = latteReport(join(run.dir, 'latte.json'));
      // Wall time beyond latte's own elapsed run: job set-up, the schema step, parsing, charts.
      wall.push((performance.now() - t1) / 1000 - JSON.parse(readFileSync(join(run.dir, 'latte.json'), 'utf8')).result.elapsed_time_s);
      viaRunner.push(rep.throughput);
      latteCpu.push(rep.cpuS);
    };
    // Alternate which goes first: the server warms up over the rounds (memtables, JIT, compaction).
    for (let i = 0; i < ROUNDS; i++) {
      if (i % 2 === 0) {
        runDirect(i);
        await runRunner();
      } else {
        await runRunner();
        runDirect(i);
      }
    }
    const d = median(direct);
    const v = median(viaRunner);
    const lossPct = (100 * (d - v)) / d;
    const noise = (100 * (Math.max(...direct) - Math.min(...direct))) / d;
    // The runner's own cost: CPU the MCP server process used during a whole run_stress (job set-up, status
    // polling and parsing, charts, MCP) against the CPU latte itself used for the load.
    const cpuPct = (100 * serverCpu.reduce((a, b) => a + b, 0)) / latteCpu.reduce((a, b) => a + b, 0);
    return {
      name,
      lines: [
        `latte direct: median ${d.toFixed(0)} op/s (runs: ${direct.map((x) => x.toFixed(0)).join(', ')}; spread ${noise.toFixed(1)} %)`,
        `through run_stress: median ${v.toFixed(0)} op/s (runs: ${viaRunner.map((x) => x.toFixed(0)).join(', ')})`,
        `ratio runner / direct: ${(v / d).toFixed(3)} (${lossPct >= 0 ? `${lossPct.toFixed(1)} % lower` : `${(-lossPct).toFixed(1)} % higher`}); run-to-run spread of the direct runs ${noise.toFixed(1)} %: ${Math.abs(lossPct) <= noise ? 'within noise' : 'beyond noise'} on this shared 2-core host (client and server on the same CPUs)`,
        `runner CPU (MCP server process, whole run_stress) / latte CPU: ${serverCpu.reduce((a, b) => a + b, 0).toFixed(2)} s / ${latteCpu.reduce((a, b) => a + b, 0).toFixed(2)} s = ${cpuPct.toFixed(2)} % (goal ≤ 1 %: ${cpuPct <= 1 ? 'met' : 'NOT met'})`,
        `extra wall time per run beyond latte's own run (job set-up, schema step, parsing, charts; no snapshots): median ${median(wall).toFixed(2)} s`,
      ],
      ok: cpuPct <= 1,
    };
  } finally {
    await call('lab_stop', {}).catch(() => {});
    await client.close().catch(() => {});
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchStressOverhead();
  process.stdout.write(`\n## ${r.name}\n${r.lines.map((l) => `  ${l}`).join('\n')}\n`);
}
