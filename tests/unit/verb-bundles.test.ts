/**
 * `cql-tuner logs|interpret|review-schema` run from their own bundles (scripts/build-options.mjs verbBundles), and
 * every other verb from a one-verb program (mcp-server/src/cli/verbs.ts), so a verb loads only what it needs: the
 * logs verb is compared with DataStax sperf for peak RSS (bench/sperf.mjs). These checks read esbuild's module
 * graph of each verb bundle, not a measured RSS: the graph is deterministic, so the test cannot flap on a busy
 * machine, and it fails the day an import drags the MCP SDK, the driver, zod or the lab back into `logs`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { root, verbBundles, verbOptions } from '../../scripts/build-options.mjs';
import { buildProgram } from '../../mcp-server/src/cli/main.js';
import { oneVerbProgram, VERB_LOADERS, verbLoader } from '../../mcp-server/src/cli/verbs.js';

/** The modules a bundle evaluates when it starts: its entry's static imports, transitively (import() excluded). */
async function loadedAtStart(verb: string): Promise<string[]> {
  const opts = verbOptions(verb);
  const { metafile } = await build({ ...opts, write: false, metafile: true, minify: false });
  const inputs = metafile.inputs;
  const seen = new Set<string>();
  const todo = Object.keys(inputs).filter((f) => f.endsWith(`cli/hot/${verb}.ts`));
  expect(todo).toHaveLength(1);
  while (todo.length) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const i of inputs[f]?.imports ?? []) if (i.kind !== 'dynamic-import' && !i.external) todo.push(i.path);
  }
  return [...seen];
}

const mcp = [/node_modules\/@modelcontextprotocol\//, /^mcp-server\/src\/mcp\//];
const lab = /^mcp-server\/src\/lab\//;
const heavyForLogs = [/node_modules\/zod\//, /node_modules\/yaml\//, /node_modules\/cassandra-driver\//, /node_modules\/execa\//, /node_modules\/adm-zip\//];

describe('verb bundles load only what their verb needs', () => {
  it('the logs verb starts without zod, yaml, the driver, execa, the lab or the MCP SDK', async () => {
    const mods = await loadedAtStart('logs');
    for (const re of [...mcp, lab, ...heavyForLogs])
      expect(
        mods.filter((m) => re.test(m)),
        String(re),
      ).toEqual([]);
    // and it does parse and judge logs: the streaming reader and the rules are there
    expect(mods).toContain('mcp-server/src/ops/node-logs.ts');
    expect(mods).toContain('mcp-server/src/core/rules/index.ts');
  }, 60_000);

  it('interpret starts without the MCP SDK, the lab or the driver; review-schema (it reads a live cluster too) without the MCP SDK', async () => {
    const interpret = await loadedAtStart('interpret');
    const schema = await loadedAtStart('review-schema');
    for (const re of [...mcp, lab, /node_modules\/cassandra-driver\//, /node_modules\/execa\//])
      expect(
        interpret.filter((m) => re.test(m)),
        `interpret ${re}`,
      ).toEqual([]);
    for (const re of mcp)
      expect(
        schema.filter((m) => re.test(m)),
        `review-schema ${re}`,
      ).toEqual([]);
  }, 60_000);

  it('the logs verb never loads ICU (its collator alone is ~2.4 MiB of peak RSS): a StatusLogger log with findings, text and JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cql-tuner-icu-'));
    try {
      // records, at exit, every locale-aware call made: each one loads ICU data into the process
      const probe = join(dir, 'probe.cjs');
      writeFileSync(
        probe,
        [
          'const used = new Set();',
          'const spy = (o, k, label) => { const f = o[k]; o[k] = function (...a) { used.add(label); return new.target ? Reflect.construct(f, a, new.target) : f.apply(this, a); }; };',
          "spy(String.prototype, 'localeCompare', 'localeCompare'); spy(Number.prototype, 'toLocaleString', 'Number toLocaleString');",
          "spy(Date.prototype, 'toLocaleString', 'Date toLocaleString'); for (const k of ['Collator', 'NumberFormat', 'DateTimeFormat', 'PluralRules']) spy(Intl, k, 'Intl.' + k);",
          "process.on('exit', () => process.stderr.write('ICU: ' + [...used].join(',') + '\\n'));",
        ].join('\n'),
      );
      const entry = join(root, 'mcp-server/dist/cql-tuner.js');
      const log = join(root, 'tests/fixtures/sperf/statuslogger_new.log');
      for (const args of [
        ['logs', '--json', log],
        ['logs', log],
      ]) {
        const r = spawnSync(process.execPath, ['-r', probe, entry, ...args], { env: { ...process.env, CQL_TUNER_CODE_CACHE: '0' }, timeout: 30_000 });
        expect(r.stdout.toString()).toMatch(/StatusLogger|Pool|pending/i);
        expect(
          r.stderr
            .toString()
            .split('\n')
            .filter((l) => l.startsWith('ICU: ')),
        ).toEqual(['ICU: ']);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('run as the npm bin runs it (the file itself, through its shebang), the entry starts Node with one V8 worker thread', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cql-tuner-shebang-'));
    try {
      const probe = join(dir, 'argv.cjs');
      writeFileSync(probe, "process.on('exit', () => process.stderr.write('EXECARGV ' + JSON.stringify(process.execArgv) + '\\n'));\n");
      const entry = join(root, 'mcp-server/dist/cql-tuner.js');
      const r = spawnSync(entry, ['--version'], { env: { ...process.env, NODE_OPTIONS: `-r ${probe}` }, timeout: 30_000 });
      expect(r.status).toBe(0);
      expect(r.stdout.toString().trim()).toMatch(/^\d+\.\d+\.\d+/);
      expect(r.stderr.toString()).toContain('EXECARGV ["--v8-pool-size=1"]');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the built entry runs each verb from its own bundle, and everything else from the main bundle', () => {
    const entry = join(root, 'mcp-server/dist/cql-tuner.js');
    const said = (args: string[]) =>
      spawnSync(process.execPath, [entry, ...args], { env: { ...process.env, CQL_TUNER_CODE_CACHE: '0', CQL_TUNER_CODE_CACHE_DEBUG: '1' }, timeout: 30_000 })
        .stderr.toString()
        .split('\n')
        .filter((l) => l.startsWith('cql-tuner code cache: verb bundle '));
    for (const [verb, path] of Object.entries(verbBundles as Record<string, string>))
      expect(said([verb, '--help'])).toEqual([`cql-tuner code cache: verb bundle ${join(root, path)}`]);
    expect(said(['--version'])).toEqual([]);
    expect(said(['nodetool', '--help'])).toEqual([]);
  }, 60_000);
});

describe('one-verb programs are the whole program, one verb at a time', () => {
  const help = (c: Command): string[] => [c.helpInformation(), ...c.commands.flatMap(help)];

  it('the verb table lists every verb of the whole program but mcp, in order', () => {
    expect(VERB_LOADERS.map(([name]) => name)).toEqual(
      buildProgram()
        .commands.map((c) => c.name())
        .filter((n) => n !== 'mcp'),
    );
    expect(verbLoader(['node', 'cql-tuner', 'logs'])).toBeDefined();
    for (const argv of [['mcp'], ['--json', 'logs'], ['help', 'logs'], ['nope'], []])
      expect(verbLoader(['node', 'cql-tuner', ...argv]), argv.join(' ')).toBeUndefined();
  });

  it('each verb (and its subcommands) has the same help as in the whole program', async () => {
    const whole = buildProgram();
    for (const [name, load] of VERB_LOADERS) {
      const one = await oneVerbProgram(load);
      expect(one.commands.map((c) => c.name())).toEqual([name]);
      expect(help(one.commands[0]!), name).toEqual(help(whole.commands.find((c) => c.name() === name)!));
      expect(one.helpInformation().split('\n')[0]).toBe(whole.helpInformation().split('\n')[0]);
    }
  }, 60_000);
});
