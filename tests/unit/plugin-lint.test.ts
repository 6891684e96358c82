/**
 * Lint for the model-facing part of the plugin: skills/<name>/SKILL.md (+ references/*.md) and
 * commands/*.md. Frontmatter as Claude Code expects it, references one level deep, every MCP tool named
 * is one the built server really registers, every kb:<id> exists, and no threshold-like number with a
 * unit is stated without the knowledge id that holds it.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { allKnowledge } from '../../mcp-server/src/core/knowledge/index.js';
import { connectBundle } from '../helpers/mcp-client.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SKILLS = join(ROOT, 'skills');
const COMMANDS = join(ROOT, 'commands');
const RULES = join(ROOT, 'mcp-server', 'src', 'core', 'rules');

/** How Claude Code names the tools of this plugin's `tuner` server. */
const TOOL_PREFIX = 'mcp__plugin_cql-tuner_tuner__';
/** Any MCP tool reference, so a typo in the prefix is caught too. */
const ANY_MCP_TOOL = /\bmcp__[A-Za-z0-9_-]+?__([A-Za-z0-9_]+)/g;
const KB = /\bkb:([a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)/g;
const CITES_KB = new RegExp(KB.source);
/** A number followed by a unit: the shape of a threshold or default that belongs in knowledge/. */
const NUMBER_WITH_UNIT = /\b\d+(?:\.\d+)?\s?(?:ms|µs|us|s|min|h|KiB|MiB|GiB|TiB|KB|MB|GB|TB|Mb\/s|MiB\/s|MB\/s|%|×|x)(?![A-Za-z0-9])/;

interface Doc {
  path: string;
  rel: string;
  text: string;
  frontmatter: Record<string, unknown> | null;
  body: string;
  /** 1-based line number of the first body line, for messages. */
  bodyStart: number;
}

function readDoc(path: string): Doc {
  const text = readFileSync(path, 'utf8');
  const rel = relative(ROOT, path);
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!m) return { path, rel, text, frontmatter: null, body: text, bodyStart: 1 };
  const parsed: unknown = YAML.parse(m[1] ?? '');
  const frontmatter = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  return { path, rel, text, frontmatter, body: text.slice(m[0].length), bodyStart: m[0].split('\n').length };
}

function listDirs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => statSync(join(dir, n)).isDirectory())
    .sort();
}

function walk(dir: string, keep: (p: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...walk(p, keep));
    else if (keep(p)) out.push(p);
  }
  return out;
}

/** Relative Markdown link targets (no URLs, no pure anchors), without their #fragment. */
function localLinks(markdown: string): string[] {
  const out: string[] = [];
  for (const m of markdown.matchAll(/\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = m[1] ?? '';
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
    out.push(target.split('#')[0] ?? '');
  }
  return out;
}

function allowedTools(fm: Record<string, unknown>): string[] {
  const v = fm['allowed-tools'];
  if (typeof v === 'string') return v.split(/[\s,]+/).filter(Boolean);
  if (Array.isArray(v))
    return v
      .filter((x): x is string => typeof x === 'string')
      .map((s) => s.trim())
      .filter(Boolean);
  return [];
}

const skillNames = listDirs(SKILLS);
const skillDocs = skillNames.map((name) => ({
  name,
  dir: join(SKILLS, name),
  doc: existsSync(join(SKILLS, name, 'SKILL.md')) ? readDoc(join(SKILLS, name, 'SKILL.md')) : null,
}));
const referenceFiles = walk(SKILLS, (p) => p.endsWith('.md') && basename(p) !== 'SKILL.md');
const commandFiles = existsSync(COMMANDS)
  ? readdirSync(COMMANDS)
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => join(COMMANDS, f))
  : [];
const commandDocs = commandFiles.map(readDoc);
const allMarkdown = [...walk(SKILLS, (p) => p.endsWith('.md')), ...commandFiles];

describe('skills/', () => {
  it('has the skills this plugin ships', () => {
    expect(skillNames).toEqual(expect.arrayContaining(['diagnosing-cluster-performance', 'running-the-local-lab', 'reading-pasted-output']));
  });

  it('every skill directory has a SKILL.md with frontmatter', () => {
    const problems = skillDocs.filter((s) => !s.doc || !s.doc.frontmatter).map((s) => `skills/${s.name}: ${s.doc ? 'no YAML frontmatter' : 'no SKILL.md'}`);
    expect(problems).toEqual([]);
  });

  it('frontmatter name equals the directory name and is a valid skill name', () => {
    const problems: string[] = [];
    for (const { name, doc } of skillDocs) {
      const n = doc?.frontmatter?.name;
      if (n !== name) problems.push(`skills/${name}: name is ${JSON.stringify(n)}, expected ${JSON.stringify(name)}`);
      if (!/^[a-z0-9-]+$/.test(name)) problems.push(`skills/${name}: only lowercase letters, digits and hyphens`);
      if (name.length > 64) problems.push(`skills/${name}: longer than 64 characters`);
      if (/anthropic|claude/.test(name)) problems.push(`skills/${name}: contains a reserved word`);
    }
    expect(problems).toEqual([]);
  });

  it('description says when to load the skill: starts with "Use when", at most 1,024 characters, no XML tags', () => {
    const problems: string[] = [];
    for (const { name, doc } of skillDocs) {
      const d = doc?.frontmatter?.description;
      if (typeof d !== 'string' || !d.trim()) {
        problems.push(`skills/${name}: no description`);
        continue;
      }
      if (!d.startsWith('Use when')) problems.push(`skills/${name}: description must start with "Use when"`);
      if (d.length > 1024) problems.push(`skills/${name}: description is ${d.length} characters (max 1024)`);
      if (/<\/?[A-Za-z][^>]*>/.test(d)) problems.push(`skills/${name}: description contains an XML tag`);
    }
    expect(problems).toEqual([]);
  });

  it('SKILL.md bodies stay under 500 lines', () => {
    const long = skillDocs.filter((s) => s.doc && s.doc.body.split('\n').length > 500).map((s) => `skills/${s.name}: ${s.doc!.body.split('\n').length} lines`);
    expect(long).toEqual([]);
  });

  it('SKILL.md links point at files that exist, references only one level deep', () => {
    const problems: string[] = [];
    for (const { name, dir, doc } of skillDocs) {
      if (!doc) continue;
      for (const target of localLinks(doc.body)) {
        const abs = resolve(dir, target);
        if (!existsSync(abs)) problems.push(`skills/${name}/SKILL.md links to missing ${target}`);
        const rel = relative(dir, abs).split(/[\\/]/);
        if (rel[0] === 'references' && rel.length !== 2) problems.push(`skills/${name}/SKILL.md links to ${target}: references must be one level deep`);
        if (rel[0] === '..') problems.push(`skills/${name}/SKILL.md links outside its skill: ${target}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('reference files live directly in <skill>/references/, are linked from SKILL.md, and link to no other reference', () => {
    const problems: string[] = [];
    for (const p of referenceFiles) {
      const rel = relative(SKILLS, p).split(/[\\/]/);
      if (rel.length !== 3 || rel[1] !== 'references') {
        problems.push(`skills/${rel.join('/')}: Markdown besides SKILL.md must be skills/<skill>/references/<file>.md`);
        continue;
      }
      const skill = skillDocs.find((s) => s.name === rel[0]);
      const linked = skill?.doc ? localLinks(skill.doc.body).map((t) => resolve(skill.dir, t)) : [];
      if (!linked.includes(p)) problems.push(`skills/${rel.join('/')}: not linked from skills/${rel[0]}/SKILL.md`);
      for (const target of localLinks(readFileSync(p, 'utf8'))) {
        if (target.endsWith('.md')) problems.push(`skills/${rel.join('/')} links to ${target}: references link to no other Markdown file`);
      }
    }
    for (const { name, dir } of skillDocs) {
      const refs = join(dir, 'references');
      for (const sub of listDirs(refs)) problems.push(`skills/${name}/references/${sub}/: no subdirectories in references`);
    }
    expect(problems).toEqual([]);
  });

  it('each skill tells the assistant which cql-tuner tools to call (full names)', () => {
    const without = skillDocs.filter((s) => s.doc && !s.doc.body.includes(TOOL_PREFIX)).map((s) => s.name);
    expect(without).toEqual([]);
  });

  it('the findings catalogue covers every finding and knowledge id the rules use', () => {
    const catalogue = readFileSync(join(SKILLS, 'diagnosing-cluster-performance', 'references', 'findings-catalogue.md'), 'utf8');
    const ids = new Set<string>();
    for (const f of readdirSync(RULES).filter((x) => x.endsWith('.ts'))) {
      for (const m of readFileSync(join(RULES, f), 'utf8').matchAll(/'([a-z][a-z0-9-]*(?:\.[a-z0-9-]+)+)'/g)) ids.add(m[1]!);
    }
    expect(ids.size).toBeGreaterThan(20);
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const missing = [...ids].filter((id) => !new RegExp(`(?<![a-z0-9.-])${escape(id)}(?![a-z0-9-]|\\.[a-z0-9])`).test(catalogue)).sort();
    expect(missing, 'ids used in mcp-server/src/core/rules/*.ts but absent from the findings catalogue').toEqual([]);
  });
});

describe('commands/', () => {
  it('has the diagnose, interpret, lab and node-status commands', () => {
    expect(commandFiles.map((p) => basename(p))).toEqual(expect.arrayContaining(['diagnose.md', 'interpret.md', 'lab.md', 'node-status.md']));
  });

  it('every command has a description and allowed-tools', () => {
    const problems: string[] = [];
    for (const d of commandDocs) {
      if (!d.frontmatter) {
        problems.push(`${d.rel}: no YAML frontmatter`);
        continue;
      }
      if (typeof d.frontmatter.description !== 'string' || !d.frontmatter.description.trim()) problems.push(`${d.rel}: no description`);
      if (!allowedTools(d.frontmatter).length) problems.push(`${d.rel}: no allowed-tools`);
    }
    expect(problems).toEqual([]);
  });

  it('a command with an argument-hint uses $ARGUMENTS in its body', () => {
    const problems = commandDocs.filter((d) => d.frontmatter?.['argument-hint'] !== undefined && !d.body.includes('$ARGUMENTS')).map((d) => d.rel);
    expect(problems).toEqual([]);
  });

  it('every MCP tool a command names in its body is in its allowed-tools', () => {
    const problems: string[] = [];
    for (const d of commandDocs) {
      const allowed = new Set(d.frontmatter ? allowedTools(d.frontmatter) : []);
      for (const m of d.body.matchAll(ANY_MCP_TOOL)) if (!allowed.has(m[0])) problems.push(`${d.rel}: ${m[0]} is used but not in allowed-tools`);
    }
    expect(problems).toEqual([]);
  });
});

describe('references from skills and commands', () => {
  let registered: string[] = [];
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const c = await connectBundle();
    close = c.close;
    registered = (await c.client.listTools()).tools.map((t) => t.name);
  }, 60_000);

  afterAll(async () => {
    await close?.();
  });

  it('every mcp__plugin_cql-tuner_tuner__<tool> named is a tool the built server registers', () => {
    expect(registered.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const p of allMarkdown) {
      for (const m of readFileSync(p, 'utf8').matchAll(ANY_MCP_TOOL)) {
        if (!m[0].startsWith(TOOL_PREFIX)) problems.push(`${relative(ROOT, p)}: ${m[0]} is not a tool of this plugin (prefix ${TOOL_PREFIX})`);
        else if (!registered.includes(m[1]!)) problems.push(`${relative(ROOT, p)}: ${m[0]} is not registered (server has: ${registered.join(', ')})`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every kb:<id> exists in the knowledge pack', () => {
    const ids = new Set(allKnowledge().map((e) => e.id));
    const problems: string[] = [];
    let cited = 0;
    for (const p of allMarkdown) {
      for (const m of readFileSync(p, 'utf8').matchAll(KB)) {
        cited++;
        if (!ids.has(m[1]!)) problems.push(`${relative(ROOT, p)}: kb:${m[1]} is not a knowledge id`);
      }
    }
    expect(cited).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });

  it('a skill or command named as "`<name>` skill" exists', () => {
    const problems: string[] = [];
    for (const p of allMarkdown) {
      for (const m of readFileSync(p, 'utf8').matchAll(/`([a-z0-9-]+)` skill/g))
        if (!skillNames.includes(m[1]!)) problems.push(`${relative(ROOT, p)}: no skill ${m[1]}`);
    }
    expect(problems).toEqual([]);
  });

  it('the number-with-unit pattern catches thresholds and leaves ports, versions and ids alone', () => {
    for (const s of ['above 200 ms', 'heap at 75%', 'over 100 MiB', 'a 1.5x ratio', 'pauses of 1000ms', 'cap of 64 MiB/s', '3× the median'])
      expect(NUMBER_WITH_UNIT.test(s), s).toBe(true);
    for (const s of ['JMX 7199/7299/7399', 'Cassandra 5.0 or 4.1', '1 or 3 nodes', 'the 3 a.m. path', 'p99 of reads', '2^20 bytes', '0x1f', '3 sockets'])
      expect(NUMBER_WITH_UNIT.test(s), s).toBe(false);
  });

  it('no line states a number with a unit unless it cites the kb:<id> that holds it', () => {
    const problems: string[] = [];
    for (const p of allMarkdown) {
      readFileSync(p, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const m = NUMBER_WITH_UNIT.exec(line);
          if (m && !CITES_KB.test(line)) problems.push(`${relative(ROOT, p)}:${i + 1}: "${m[0]}" without a kb:<id> on the line`);
        });
    }
    expect(problems).toEqual([]);
  });
});
