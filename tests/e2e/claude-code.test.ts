/**
 * End-to-end check against the real Claude Code CLI (devDependency @anthropic-ai/claude-code):
 * the manifests validate, the repo installs as a one-plugin marketplace, and the plugin's MCP
 * server starts and answers Claude Code's health check. Every CLI call runs with a throwaway HOME
 * and CLAUDE_CONFIG_DIR; no API key and no network are needed.
 *
 * Needs the committed bundle mcp-server/dist/cql-tuner.js (`npm run build`).
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUNDLE,
  MARKETPLACE_NAME,
  PLUGIN_NAME,
  PLUGIN_SERVER_ID,
  REPO_ROOT,
  makeClaudeHome,
  mcpListLine,
  realClaudeStateFingerprint,
  runClaude,
  type ClaudeHome,
  type ClaudeRun,
} from './helpers/claude-home.js';

const PLUGIN_ID = `${PLUGIN_NAME}@${MARKETPLACE_NAME}`;
const TEST_TIMEOUT = 240_000;

/** `plugin:cql-tuner:tuner: node <root>/mcp-server/dist/cql-tuner.js mcp - ✔ Connected` */
function connectedLine(out: ClaudeRun, expectedRoot?: string): string {
  const line = mcpListLine(out.stdout, PLUGIN_SERVER_ID);
  expect(line, `no ${PLUGIN_SERVER_ID} line in \`claude mcp list\`:\n${out.all}`).toBeDefined();
  const m = /^plugin:cql-tuner:tuner: node (\S+?)\/*\/mcp-server\/dist\/cql-tuner\.js mcp - (.+)$/.exec(line ?? '');
  expect(m, `unexpected line: ${line}`).not.toBeNull();
  expect(m?.[2], `server did not connect:\n${out.all}`).toMatch(/^\S+ Connected$/);
  if (expectedRoot !== undefined) expect(m?.[1]).toBe(expectedRoot.replace(/\/+$/, ''));
  return line ?? '';
}

function requireBundle(): void {
  if (!existsSync(BUNDLE)) {
    throw new Error(`missing ${BUNDLE}: run \`npm run build\` before the e2e tests`);
  }
}

let realStateBefore = '';
const homes: ClaudeHome[] = [];
const scratch: string[] = [];

async function newHome(): Promise<ClaudeHome> {
  const h = await makeClaudeHome();
  homes.push(h);
  return h;
}

/** A working directory with no .mcp.json, so only user-scope and plugin servers are listed. */
async function neutralCwd(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'cql-tuner-e2e-cwd-'));
  scratch.push(d);
  return d;
}

beforeAll(async () => {
  realStateBefore = await realClaudeStateFingerprint();
});

afterAll(async () => {
  if (process.env.CQL_TUNER_E2E_KEEP !== '1') {
    await Promise.all([...homes.map((h) => h.cleanup()), ...scratch.map((d) => rm(d, { recursive: true, force: true }))]);
  }
  // Nothing above may have written to the real ~/.claude or ~/.claude.json.
  expect(await realClaudeStateFingerprint()).toBe(realStateBefore);
});

describe('claude plugin validate', () => {
  it(
    'passes --strict on .claude-plugin/plugin.json',
    async () => {
      const h = await newHome();
      const r = await runClaude(['plugin', 'validate', '--strict', '.claude-plugin/plugin.json'], { env: h.env, cwd: REPO_ROOT });
      expect(r.exitCode, r.all).toBe(0);
      expect(r.stdout).toContain('Validating plugin manifest');
      expect(r.stdout).toMatch(/Validation passed/);
      expect(r.all).not.toMatch(/warning/i);
    },
    TEST_TIMEOUT,
  );

  it(
    'passes on the repository root (the marketplace manifest), with and without --strict',
    async () => {
      const h = await newHome();
      for (const args of [
        ['plugin', 'validate', '.'],
        ['plugin', 'validate', '--strict', '.'],
      ]) {
        const r = await runClaude(args, { env: h.env, cwd: REPO_ROOT });
        expect(r.exitCode, r.all).toBe(0);
        expect(r.stdout).toContain('Validating marketplace manifest');
        expect(r.stdout).toMatch(/Validation passed/);
      }
    },
    TEST_TIMEOUT,
  );
});

describe('install from the repository as a local marketplace', () => {
  let h: ClaudeHome;

  beforeAll(async () => {
    requireBundle();
    h = await newHome();
  });

  it(
    'adds the marketplace, installs the plugin, and `claude mcp list` shows tuner Connected',
    async () => {
      const add = await runClaude(['plugin', 'marketplace', 'add', REPO_ROOT], { env: h.env, cwd: REPO_ROOT });
      expect(add.exitCode, add.all).toBe(0);
      expect(add.stdout).toContain(`Successfully added marketplace: ${MARKETPLACE_NAME}`);

      const install = await runClaude(['plugin', 'install', PLUGIN_ID], { env: h.env, cwd: REPO_ROOT });
      expect(install.exitCode, install.all).toBe(0);
      expect(install.stdout).toContain(`Successfully installed plugin: ${PLUGIN_ID}`);

      // Claude Code records the install and copies the plugin into its versioned cache.
      const installed = JSON.parse(await readFile(join(h.configDir, 'plugins', 'installed_plugins.json'), 'utf8')) as {
        plugins: Record<string, Array<{ installPath: string; version: string; scope: string }>>;
      };
      const entry = installed.plugins[PLUGIN_ID]?.[0];
      expect(entry?.version).toBe('0.1.0');
      expect(entry?.scope).toBe('user');
      expect(entry?.installPath).toBe(join(h.configDir, 'plugins', 'cache', MARKETPLACE_NAME, PLUGIN_NAME, '0.1.0'));
      expect(existsSync(join(entry?.installPath ?? '/nonexistent', 'mcp-server', 'dist', 'cql-tuner.js'))).toBe(true);
      expect(existsSync(join(entry?.installPath ?? '/nonexistent', '.mcp.json'))).toBe(true);

      const list = await runClaude(['plugin', 'list'], { env: h.env, cwd: REPO_ROOT });
      expect(list.exitCode, list.all).toBe(0);
      expect(list.stdout).toContain(PLUGIN_ID);
      expect(list.stdout).toMatch(/Status: \S+ enabled/);

      // Run from a directory without a .mcp.json: the repo's own .mcp.json would otherwise also be
      // read as a project-scope config and listed as a second, pending "tuner" server.
      const mcp = await runClaude(['mcp', 'list'], { env: h.env, cwd: await neutralCwd() });
      expect(mcp.exitCode, mcp.all).toBe(0);
      // A directory-source marketplace serves a "./" plugin from the marketplace directory itself.
      connectedLine(mcp, REPO_ROOT);
    },
    TEST_TIMEOUT,
  );
});

describe('install from a clean checkout (no node_modules)', () => {
  let h: ClaudeHome;
  let checkout: string;

  beforeAll(async () => {
    requireBundle();
    h = await newHome();
    // What a user gets from `git clone`: the plugin files and package metadata, never node_modules.
    // The MCP server must start from its single-file bundle alone.
    checkout = join(await neutralCwd(), 'cql-tuner');
    await mkdir(checkout, { recursive: true });
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { files?: string[] };
    const entries = new Set([...(pkg.files ?? []), 'package.json', 'package-lock.json', '.npmrc', '.claude-plugin', '.mcp.json', 'mcp-server/dist']);
    for (const rel of entries) {
      const from = join(REPO_ROOT, rel);
      if (existsSync(from)) await cp(from, join(checkout, rel), { recursive: true });
    }
  });

  it(
    'installs and the server connects without any node_modules',
    async () => {
      expect(existsSync(join(checkout, 'node_modules'))).toBe(false);
      const add = await runClaude(['plugin', 'marketplace', 'add', checkout], { env: h.env, cwd: checkout });
      expect(add.exitCode, add.all).toBe(0);
      const install = await runClaude(['plugin', 'install', PLUGIN_ID], { env: h.env, cwd: checkout });
      expect(install.exitCode, install.all).toBe(0);
      expect(install.stdout).toContain(`Successfully installed plugin: ${PLUGIN_ID}`);

      const mcp = await runClaude(['mcp', 'list'], { env: h.env, cwd: await neutralCwd() });
      expect(mcp.exitCode, mcp.all).toBe(0);
      connectedLine(mcp, checkout);
    },
    TEST_TIMEOUT,
  );
});

describe('claude --plugin-dir . (session-only, no install)', () => {
  beforeAll(() => {
    requireBundle();
  });

  it(
    '`claude --plugin-dir . mcp list` shows tuner Connected',
    async () => {
      const h = await newHome();
      const r = await runClaude(['--plugin-dir', '.', 'mcp', 'list'], { env: h.env, cwd: REPO_ROOT });
      expect(r.exitCode, r.all).toBe(0);
      connectedLine(r, REPO_ROOT);
    },
    TEST_TIMEOUT,
  );

  it(
    'loads the node-status command and the tuner server from the plugin directory',
    async () => {
      const h = await newHome();
      const r = await runClaude(['--plugin-dir', REPO_ROOT, 'plugin', 'details', PLUGIN_NAME], { env: h.env, cwd: await neutralCwd() });
      expect(r.exitCode, r.all).toBe(0);
      expect(r.stdout).toMatch(/node-status/);
      expect(r.stdout).toMatch(/MCP servers \(1\)\s+tuner/);
    },
    TEST_TIMEOUT,
  );
});
