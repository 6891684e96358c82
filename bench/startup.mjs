// Spawn → initialize → tools/list of the committed entry, against a bare `node -e ''` start and against the same
// entry with its V8 code cache off, measured in the same run (alternated) so the ratios hold on any machine.
// Goal: the median under 300 ms.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const bundle = fileURLToPath(new URL('../mcp-server/dist/cql-tuner.js', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const GOAL_MS = 300;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

async function spawnToToolsList(env = {}) {
  const t0 = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: [bundle, 'mcp'], env: { ...process.env, ...env }, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const ms = performance.now() - t0;
  await client.close();
  if (!tools.length) throw new Error('no tools listed');
  return ms;
}

function bareNode() {
  const t0 = performance.now();
  spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  return performance.now() - t0;
}

export async function benchStartup() {
  await spawnToToolsList(); // warm the file cache and write the code cache if there is none yet
  await new Promise((r) => setTimeout(r, 2000)); // the entry writes its code cache 1.5 s after start
  const server = [];
  const noCache = [];
  const node = [];
  for (let i = 0; i < RUNS; i++) {
    server.push(await spawnToToolsList());
    noCache.push(await spawnToToolsList({ CQL_TUNER_CODE_CACHE: '0' }));
    node.push(bareNode());
  }
  const s = median(server);
  const c = median(noCache);
  const n = median(node);
  return {
    name: 'MCP spawn → tools/list',
    lines: [
      `median ${s.toFixed(0)} ms over ${RUNS} runs (min ${Math.min(...server).toFixed(0)}, max ${Math.max(...server).toFixed(0)})`,
      `same with the V8 code cache off (CQL_TUNER_CODE_CACHE=0): median ${c.toFixed(0)} ms → the cache makes start-up ${(c / s).toFixed(2)}× faster`,
      `bare node start: median ${n.toFixed(0)} ms → server costs ${(s / n).toFixed(2)}× a bare node start`,
      `goal ≤ ${GOAL_MS} ms: ${s <= GOAL_MS ? 'met' : 'NOT met'} (${(s / GOAL_MS).toFixed(2)}× the goal)`,
    ],
    ok: s <= GOAL_MS,
  };
}
