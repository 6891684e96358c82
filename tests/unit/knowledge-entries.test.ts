/**
 * The knowledge pack as data: every YAML entry validates, the generated file is fresh, settings do not
 * contradict each other, related ids resolve, and every id cited in code, skills and commands exists.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ENTRIES } from '../../mcp-server/src/core/knowledge/entries.generated.js';
import { allKnowledge, rangesOverlap } from '../../mcp-server/src/core/knowledge/index.js';
import { KnowledgeEntrySchema } from '../../mcp-server/src/core/knowledge/schema.js';
import type { KnowledgeEntry } from '../../mcp-server/src/core/knowledge/types.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const KNOWLEDGE_DIR = join(ROOT, 'knowledge');
const GENERATOR = join(ROOT, 'scripts', 'gen-knowledge.mjs');

interface Loaded {
  file: string;
  index: number;
  raw: unknown;
}

function loadYaml(): Loaded[] {
  const out: Loaded[] = [];
  for (const f of readdirSync(KNOWLEDGE_DIR).filter((x) => x.endsWith('.yaml')).sort()) {
    const list: unknown = YAML.parse(readFileSync(join(KNOWLEDGE_DIR, f), 'utf8'));
    expect(Array.isArray(list), `knowledge/${f} must be a YAML list`).toBe(true);
    (list as unknown[]).forEach((raw, index) => out.push({ file: `knowledge/${f}`, index, raw }));
  }
  return out;
}

function walk(dir: string, keep: (path: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p, keep));
    else if (keep(p)) out.push(p);
  }
  return out;
}

const loaded = loadYaml();
const entries = loaded.map((l) => l.raw as KnowledgeEntry);
const ids = new Set(allKnowledge().map((e) => e.id));

describe('knowledge/*.yaml', () => {
  it('has entries in several topic files', () => {
    expect(new Set(loaded.map((l) => l.file)).size).toBeGreaterThanOrEqual(5);
    expect(loaded.length).toBeGreaterThan(30);
  });

  it('every entry validates against the zod schema of KnowledgeEntry', () => {
    const problems: string[] = [];
    for (const l of loaded) {
      const r = KnowledgeEntrySchema.safeParse(l.raw);
      if (!r.success) {
        const id = (l.raw as { id?: unknown })?.id;
        for (const issue of r.error.issues) {
          problems.push(`${l.file} entry #${l.index + 1} (${String(id)}): ${issue.path.join('.') || '(entry)'}: ${issue.message}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('ids are unique across files', () => {
    const seen = new Map<string, string>();
    const dups: string[] = [];
    for (const l of loaded) {
      const id = (l.raw as KnowledgeEntry).id;
      if (seen.has(id)) dups.push(`${id}: ${seen.get(id)} and ${l.file}`);
      seen.set(id, l.file);
    }
    expect(dups).toEqual([]);
  });

  it('every related id exists and is not the entry itself', () => {
    const bad: string[] = [];
    for (const e of entries) {
      for (const r of e.related ?? []) {
        if (!ids.has(r)) bad.push(`${e.id} → ${r} (unknown)`);
        if (r === e.id) bad.push(`${e.id} → itself`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('numbers that are conventions say so in the rationale', () => {
    const bad = entries
      .filter((e) => e.tags?.includes('convention'))
      .filter((e) => !/convention|this project's choice/i.test(e.rationale))
      .map((e) => e.id);
    expect(bad).toEqual([]);
  });

  it('no two entries give one setting different values for the same product and overlapping versions', () => {
    interface Claim {
      id: string;
      setting: string;
      value: unknown;
      unit: string | undefined;
      appliesTo: KnowledgeEntry['appliesTo'];
    }
    const claims: Claim[] = [];
    const problems: string[] = [];
    for (const e of entries) {
      for (const tag of e.tags ?? []) {
        const m = /^setting:([^=]+)(?:=(warning|critical))?$/.exec(tag);
        if (!m?.[1]) continue;
        const which = m[2] as 'warning' | 'critical' | undefined;
        const value = which ? e.thresholds?.[which] : e.value;
        if (value === undefined) {
          problems.push(`${e.id}: tag "${tag}" but the entry has no ${which ? `thresholds.${which}` : 'value'}`);
          continue;
        }
        claims.push({ id: e.id, setting: m[1], value, unit: e.unit, appliesTo: e.appliesTo });
      }
    }
    for (let i = 0; i < claims.length; i++) {
      for (let j = i + 1; j < claims.length; j++) {
        const a = claims[i]!;
        const b = claims[j]!;
        if (a.setting !== b.setting || a.id === b.id) continue;
        if (a.value === b.value && a.unit === b.unit) continue;
        for (const x of a.appliesTo) {
          for (const y of b.appliesTo) {
            if (x.product === y.product && rangesOverlap(x.versions, y.versions)) {
              problems.push(
                `setting ${a.setting}: ${a.id} says ${String(a.value)} ${a.unit ?? ''} and ${b.id} says ${String(b.value)} ${b.unit ?? ''} for ${x.product} "${x.versions}" / "${y.versions}"`,
              );
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('entries.generated.ts', () => {
  it('is fresh: node scripts/gen-knowledge.mjs --check passes', () => {
    let output = '';
    try {
      output = execFileSync(process.execPath, [GENERATOR, '--check'], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      const err = e as { stderr?: string; stdout?: string };
      throw new Error(`gen-knowledge --check failed:\n${err.stderr ?? ''}${err.stdout ?? ''}`);
    }
    expect(output).toMatch(/up to date/);
  });

  it('holds exactly the YAML entries, sorted by id', () => {
    const fromYaml = [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    expect(JSON.parse(JSON.stringify(ENTRIES))).toEqual(JSON.parse(JSON.stringify(fromYaml)));
  });

  it('carries the do-not-edit header', () => {
    const text = readFileSync(join(ROOT, 'mcp-server/src/core/knowledge/entries.generated.ts'), 'utf8');
    expect(text.startsWith('// generated by scripts/gen-knowledge.mjs from knowledge/*.yaml — do not edit')).toBe(true);
  });
});

describe('gen-knowledge.mjs on broken input', () => {
  function runOn(files: Record<string, string>): { errors: string[]; count: number } {
    const dir = mkdtempSync(join(tmpdir(), 'kb-'));
    try {
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
      const script = `import { loadKnowledge } from ${JSON.stringify(GENERATOR)};
const r = loadKnowledge(${JSON.stringify(dir)});
console.log(JSON.stringify({ errors: r.errors, count: r.entries.length }));`;
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
      return JSON.parse(out) as { errors: string[]; count: number };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const good = `- id: a.b
  statement: s
  value: 1
  appliesTo: [{ product: cassandra, versions: "*" }]
  sources: [{ title: t, url: "https://example.org" }]
  rationale: r
`;

  it('accepts a valid entry', () => {
    expect(runOn({ 'ok.yaml': good })).toEqual({ errors: [], count: 1 });
  });

  it('names the file, the entry and the field', () => {
    const bad = `- id: x.y
  statement: s
  thresholds: { warning: 10, critical: 5 }
  appliesTo: [{ product: cassandra, versions: 4.1 }]
  sources: [{ title: t }]
  rationale: r
  colour: red
`;
    const { errors } = runOn({ 'bad.yaml': bad });
    expect(errors.some((e) => e.includes('bad.yaml: entry #1 (x.y): field "thresholds.critical"'))).toBe(true);
    expect(errors.some((e) => e.includes('field "appliesTo[0].versions"'))).toBe(true);
    expect(errors.some((e) => e.includes('field "sources[0]"') && e.includes('url or a ref'))).toBe(true);
    expect(errors.some((e) => e.includes('field "colour"') && e.includes('unknown field'))).toBe(true);
  });

  it('refuses duplicate ids and unknown related ids', () => {
    const withRelated = good.replace('  rationale: r\n', '  rationale: r\n  related: [no.such]\n');
    const { errors } = runOn({ 'one.yaml': good, 'two.yaml': withRelated });
    expect(errors.some((e) => e.includes('two.yaml') && e.includes('duplicate id') && e.includes('one.yaml'))).toBe(true);
    expect(errors.some((e) => e.includes('field "related": unknown id "no.such"'))).toBe(true);
  });

  it('refuses a file that is not a list, and YAML syntax errors', () => {
    const { errors } = runOn({ 'map.yaml': 'id: a\n', 'syntax.yaml': '- id: [unclosed\n' });
    expect(errors.some((e) => e.includes('map.yaml: must be a YAML list'))).toBe(true);
    expect(errors.some((e) => e.includes('syntax.yaml: YAML error'))).toBe(true);
  });
});

describe('cited knowledge ids exist', () => {
  const CALL = /\b(?:knowledge|threshold|valueOf|numberOf|hasKnowledge)\(\s*(['"`])([^'"`]+)\1\s*\)/g;
  const GRADE = /\bgrade\([^()]*?,\s*(['"`])([^'"`]+)\1\s*\)/g;
  const IDS_ARRAY = /\bknowledgeIds:\s*\[([^\]]*)\]/g;
  const STRING = /(['"`])([a-z0-9][a-z0-9.-]*)\1/g;
  const KB = /\bkb:([a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)/g;

  function citations(): { where: string; id: string }[] {
    const found: { where: string; id: string }[] = [];
    const src = join(ROOT, 'mcp-server', 'src');
    const knowledgeDir = join(src, 'core', 'knowledge');
    for (const f of walk(src, (p) => p.endsWith('.ts') && !p.startsWith(knowledgeDir))) {
      const text = readFileSync(f, 'utf8');
      const where = relative(ROOT, f);
      for (const m of text.matchAll(CALL)) found.push({ where, id: m[2]! });
      for (const m of text.matchAll(GRADE)) found.push({ where, id: m[2]! });
      for (const m of text.matchAll(IDS_ARRAY)) for (const s of m[1]!.matchAll(STRING)) found.push({ where, id: s[2]! });
    }
    const md = [
      ...walk(join(ROOT, 'skills'), (p) => p.endsWith('.md')),
      ...walk(join(ROOT, 'commands'), (p) => p.endsWith('.md') && dirname(p) === join(ROOT, 'commands')),
    ];
    for (const f of md) {
      const where = relative(ROOT, f);
      for (const m of readFileSync(f, 'utf8').matchAll(KB)) found.push({ where, id: m[1]! });
    }
    return found;
  }

  it('in mcp-server/src (knowledge/threshold/valueOf/numberOf/grade calls, knowledgeIds literals), skills/**/*.md and commands/*.md (kb:<id>)', () => {
    const missing = citations()
      .filter((c) => !ids.has(c.id))
      .map((c) => `${c.where}: ${c.id}`);
    expect(missing).toEqual([]);
  });

  it('the scanner sees the citations it is meant to see', () => {
    const sample = `threshold('jvm.gc.pause'); valueOf("cache.min-requests"); grade(x / y, 'table.partition-size');
      knowledgeIds: ['a.b', 'c.d'], kb:jvm.heap.used-ratio. and kb:os.swap,`;
    expect([...sample.matchAll(CALL)].map((m) => m[2])).toEqual(['jvm.gc.pause', 'cache.min-requests']);
    expect([...sample.matchAll(GRADE)].map((m) => m[2])).toEqual(['table.partition-size']);
    expect([...sample.matchAll(IDS_ARRAY)].flatMap((m) => [...m[1]!.matchAll(STRING)].map((s) => s[2]))).toEqual(['a.b', 'c.d']);
    expect([...sample.matchAll(KB)].map((m) => m[1])).toEqual(['jvm.heap.used-ratio', 'os.swap']);
  });
});
