/**
 * Runs the real Claude Code CLI (the pinned devDependency) against a throwaway home directory, so an
 * e2e test can add marketplaces and install plugins without touching the machine's own ~/.claude.
 */
import { execa } from 'execa';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const CLAUDE_BIN = join(REPO_ROOT, 'node_modules', '.bin', 'claude');
export const BUNDLE = join(REPO_ROOT, 'mcp-server', 'dist', 'cql-tuner.js');

export const PLUGIN_NAME = 'cql-tuner';
export const MARKETPLACE_NAME = 'cql-tuner-marketplace';
export const SERVER_KEY = 'tuner';

/** How Claude Code names a plugin's MCP server in `claude mcp list` (`plugin:<plugin>:<server>`). */
export const PLUGIN_SERVER_ID = `plugin:${PLUGIN_NAME}:${SERVER_KEY}`;

/**
 * Environment variables that must not leak from the developer's shell into the child: credentials
 * and endpoints for the API, the user's own Claude Code settings, and the npm_config_* that npm/npx
 * exports to scripts (it would point the plugin's dependency install at the real ~/.npmrc).
 */
const DROP_ENV = /^(ANTHROPIC_|CLAUDE_|CLAUDECODE$|MCP_|npm_|NPM_|AWS_|GOOGLE_|VERTEX_|OTEL_)/;

export interface ClaudeHome {
  /** The throwaway home; ~/.claude is `<dir>/.claude`. */
  dir: string;
  configDir: string;
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

export async function makeClaudeHome(prefix = 'cql-tuner-e2e-'): Promise<ClaudeHome> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const configDir = join(dir, '.claude');
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !DROP_ENV.test(k)) env[k] = v;
  }
  Object.assign(env, {
    HOME: dir,
    USERPROFILE: dir,
    CLAUDE_CONFIG_DIR: configDir,
    XDG_CONFIG_HOME: join(dir, '.config'),
    XDG_CACHE_HOME: join(dir, '.cache'),
    XDG_DATA_HOME: join(dir, '.local', 'share'),
    XDG_STATE_HOME: join(dir, '.local', 'state'),
    // Offline and quiet: no telemetry, error reports, update checks or other optional traffic.
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // `plugin install` runs `npm ci --ignore-scripts` in its cached copy when a package-lock.json is
    // present. Keep that off the network: it fails fast, which Claude Code treats as a warning only.
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_cache: join(dir, '.npm'),
    npm_config_userconfig: join(dir, '.npmrc'),
    NO_COLOR: '1',
  });
  return {
    dir,
    configDir,
    env,
    cleanup: () => rm(dir, { recursive: true, force: true, maxRetries: 3 }),
  };
}

export interface ClaudeRun {
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved, for assertion messages. */
  all: string;
  timedOut: boolean;
  ms: number;
}

/** Runs `claude <args>` with an argv array (no shell) and a hard timeout; never throws on exit codes. */
export async function runClaude(args: readonly string[], opts: { env: Record<string, string>; cwd: string; timeoutMs?: number }): Promise<ClaudeRun> {
  const started = Date.now();
  const r = await execa(CLAUDE_BIN, [...args], {
    cwd: opts.cwd,
    env: opts.env,
    extendEnv: false,
    stdin: 'ignore',
    all: true,
    reject: false,
    timeout: opts.timeoutMs ?? 120_000,
    forceKillAfterDelay: 5_000,
    stripFinalNewline: false,
  });
  return {
    exitCode: r.exitCode,
    stdout: String(r.stdout ?? ''),
    stderr: String(r.stderr ?? ''),
    all: String(r.all ?? ''),
    timedOut: r.timedOut,
    ms: Date.now() - started,
  };
}

/** Lines of `claude mcp list` output that describe the given server id. */
export function mcpListLine(output: string, serverId: string): string | undefined {
  return output.split(/\r?\n/).find((l) => l.startsWith(`${serverId}: `));
}

/**
 * A fingerprint of the files a Claude Code CLI run would create or change in the real home, so a
 * test can prove it left them alone. Limited to Claude Code's own state files rather than all of
 * ~/.claude, because a Claude Code session running this very test suite writes transcripts there.
 */
export async function realClaudeStateFingerprint(): Promise<string> {
  const home = homedir();
  const claudeDir = join(home, '.claude');
  const files = [
    join(home, '.claude.json'),
    join(claudeDir, '.claude.json'),
    join(claudeDir, 'settings.json'),
    join(claudeDir, 'plugins', 'known_marketplaces.json'),
    join(claudeDir, 'plugins', 'installed_plugins.json'),
  ];
  const parts: string[] = [];
  for (const f of files) {
    parts.push(existsSync(f) ? `${f} ${statSync(f).size} ${statSync(f).mtimeMs}` : `${f} absent`);
  }
  for (const d of [join(claudeDir, 'backups'), join(claudeDir, 'plugins', 'cache'), join(claudeDir, 'plugins', 'marketplaces')]) {
    parts.push(existsSync(d) ? `${d}: ${(await readdir(d)).sort().join(',')}` : `${d} absent`);
  }
  return parts.join('\n');
}
