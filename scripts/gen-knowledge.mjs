#!/usr/bin/env node
/**
 * knowledge/*.yaml → mcp-server/src/core/knowledge/entries.generated.ts
 *
 *   node scripts/gen-knowledge.mjs          validate every entry and (re)write the generated file
 *   node scripts/gen-knowledge.mjs --check  validate, and exit 1 if the generated file is missing or stale or an
 *                                          entry has no `verified` record (generation only warns about those)
 *
 * Plain node (no TypeScript): the checks below mirror mcp-server/src/core/knowledge/schema.ts, and the
 * tests validate the same YAML with that zod schema as well. Output is deterministic: entries sorted by
 * id, keys in the order of types.ts, two-space JSON.
 */
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import YAML from 'yaml';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const KNOWLEDGE_DIR = join(ROOT, 'knowledge');
export const OUTPUT = join(ROOT, 'mcp-server', 'src', 'core', 'knowledge', 'entries.generated.ts');

const ID = /^[a-z0-9]+(?:[.-][a-z0-9]+)*$/;
const PRODUCTS = ['cassandra', 'scylla', 'dse'];
const ENTRY_KEYS = ['id', 'statement', 'value', 'thresholds', 'unit', 'appliesTo', 'sources', 'rationale', 'related', 'tags', 'configKeys', 'verified'];
// verified: the primary source a claim was last checked against, and when (mirrors VerifiedSchema in schema.ts).
const VERIFIED_KEYS = ['source', 'checked'];
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
// A primary source is pinned: a file at a release tag ("db/config.cc@scylla-2026.1.0") or a doc page's section
// ("https://…/page.html#section"). A bare repo path or page could say anything by the next release.
const AT_TAG = /@[A-Za-z0-9][\w.+-]*\d/;
const URL_SECTION = /https?:\/\/\S+#[\w-]/;
export const verifiedSourceOk = (s) => AT_TAG.test(s) || URL_SECTION.test(s);
const VERIFIED_SOURCE_HELP = '"<file path>@<release tag>" (e.g. "db/config.cc@scylla-2026.1.0") or "<doc URL>#<section>"';
/** What to add to an entry that has no verified record (the check names the entry and prints this). */
export const MISSING_VERIFIED =
  'missing. Check the claim against a primary source for both ends of appliesTo, then add\n' +
  '      verified:\n' +
  '        source: "<file path>@<release tag> (what it says)"   # e.g. "src/java/org/apache/cassandra/config/Config.java@cassandra-5.0.9"\n' +
  '        checked: "YYYY-MM-DD"                                  # or "<doc URL>#<section>"; see knowledge/README.md "Verification"';
// configKeys rows (config-renames.yaml); mirrors ConfigKeyChangeSchema in schema.ts.
const CONFIG_KEY_KEYS = ['key', 'change', 'since', 'replacement', 'valueType', 'oldUnit', 'note'];
const YAML_KEY = /^[a-z0-9_]+$/;
const CHANGES = ['renamed', 'unit', 'removed', 'deprecated'];
const VALUE_TYPES = ['duration', 'data-storage', 'data-rate', 'boolean', 'number'];
const OLD_UNITS = ['ms', 's', 'minutes', 'B', 'KiB', 'MiB', 'MiB/s', 'megabits/s'];

function configKeyProblems(rows) {
  const p = [];
  if (!Array.isArray(rows) || rows.length === 0) return [['configKeys', 'must be a non-empty list of {key, change, since, …}']];
  const seen = new Set();
  rows.forEach((r, i) => {
    const f = `configKeys[${i}]`;
    if (!isPlainObject(r)) return void p.push([f, 'must be a mapping']);
    for (const k of Object.keys(r)) if (!CONFIG_KEY_KEYS.includes(k)) p.push([`${f}.${k}`, `unknown field (allowed: ${CONFIG_KEY_KEYS.join(', ')})`]);
    if (typeof r.key !== 'string' || !YAML_KEY.test(r.key)) p.push([`${f}.key`, 'a cassandra.yaml key (lower-case, underscores)']);
    if (!CHANGES.includes(r.change)) p.push([`${f}.change`, `must be one of ${CHANGES.join(', ')}`]);
    if (typeof r.since !== 'string' || !/^\d+\.\d+(?:\.\d+)?$/.test(r.since)) p.push([`${f}.since`, 'a version such as "4.1" (quoted)']);
    if (r.replacement !== undefined && (typeof r.replacement !== 'string' || !YAML_KEY.test(r.replacement)))
      p.push([`${f}.replacement`, 'a cassandra.yaml key']);
    if ((r.change === 'renamed' || r.change === 'unit') && r.replacement === undefined) p.push([`${f}.replacement`, `${r.change} needs the new name`]);
    if (r.valueType !== undefined && !VALUE_TYPES.includes(r.valueType)) p.push([`${f}.valueType`, `must be one of ${VALUE_TYPES.join(', ')}`]);
    if (r.oldUnit !== undefined && !OLD_UNITS.includes(r.oldUnit)) p.push([`${f}.oldUnit`, `must be one of ${OLD_UNITS.join(', ')}`]);
    if (r.note !== undefined && !isStr(r.note)) p.push([`${f}.note`, 'must be a non-empty string']);
    const dup = `${r.key}@${r.since}`;
    if (seen.has(dup)) p.push([`${f}.key`, `"${r.key}" listed twice for ${r.since}`]);
    seen.add(dup);
  });
  return p;
}
const THRESHOLD_KEYS = ['warning', 'critical', 'direction'];
const APPLIES_KEYS = ['product', 'versions'];
const SOURCE_KEYS = ['title', 'url', 'ref', 'date'];
// One alternative: "*", or clauses such as ">=4.0", "<5.0", "4.1", "4.1.x"; alternatives joined by "||".
const CLAUSE = /^(>=|<=|>|<|=)?\d+(?:\.\d+){0,3}(?:\.[x*])?$/;

function rangeError(range) {
  if (typeof range !== 'string' || !range.trim()) return 'must be a non-empty string such as "*", "4.1", ">=4.0 <5.0" (quote it in YAML)';
  for (const alt of range.split('||')) {
    const a = alt.trim();
    if (a === '*') continue;
    if (!a) return `"${range}" has an empty alternative`;
    for (const clause of a.split(/\s+/)) if (!CLAUSE.test(clause)) return `"${range}": cannot read "${clause}"`;
  }
  return null;
}

const isStr = (v) => typeof v === 'string' && v.trim().length > 0;
const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Problems of one entry as [field, message] pairs (empty when valid). */
export function entryProblems(e) {
  const p = [];
  if (!isPlainObject(e)) return [['(entry)', 'must be a mapping of the KnowledgeEntry fields']];
  for (const k of Object.keys(e)) if (!ENTRY_KEYS.includes(k)) p.push([k, `unknown field (allowed: ${ENTRY_KEYS.join(', ')})`]);
  if (!isStr(e.id)) p.push(['id', 'required string']);
  else if (!ID.test(e.id)) p.push(['id', `"${e.id}": lower-case words joined by "." or "-"`]);
  if (!isStr(e.statement)) p.push(['statement', 'required non-empty string']);
  if (e.value !== undefined && !(isNum(e.value) || typeof e.value === 'string' || typeof e.value === 'boolean')) {
    p.push(['value', 'must be a number, a string or a boolean']);
  }
  if (e.thresholds !== undefined) {
    const t = e.thresholds;
    if (!isPlainObject(t)) p.push(['thresholds', 'must be a mapping {warning?, critical?, direction?}']);
    else {
      for (const k of Object.keys(t)) if (!THRESHOLD_KEYS.includes(k)) p.push([`thresholds.${k}`, 'unknown field (allowed: warning, critical, direction)']);
      if (t.warning !== undefined && !isNum(t.warning)) p.push(['thresholds.warning', 'must be a number']);
      if (t.critical !== undefined && !isNum(t.critical)) p.push(['thresholds.critical', 'must be a number']);
      if (t.direction !== undefined && t.direction !== 'above' && t.direction !== 'below') p.push(['thresholds.direction', 'must be "above" or "below"']);
      if (t.warning === undefined && t.critical === undefined) p.push(['thresholds', 'needs a warning or a critical limit']);
      if (isNum(t.warning) && isNum(t.critical)) {
        const below = t.direction === 'below';
        if (below ? t.critical > t.warning : t.critical < t.warning) {
          p.push(['thresholds.critical', below ? 'direction "below": critical must be ≤ warning' : 'direction "above": critical must be ≥ warning']);
        }
      }
    }
    if (e.value !== undefined) p.push(['value', 'an entry states a value or thresholds, not both']);
  }
  if (e.unit !== undefined && !isStr(e.unit)) p.push(['unit', 'must be a non-empty string']);
  if (!Array.isArray(e.appliesTo) || e.appliesTo.length === 0) p.push(['appliesTo', 'required non-empty list of {product, versions}']);
  else
    e.appliesTo.forEach((a, i) => {
      if (!isPlainObject(a)) return void p.push([`appliesTo[${i}]`, 'must be a mapping {product, versions}']);
      for (const k of Object.keys(a)) if (!APPLIES_KEYS.includes(k)) p.push([`appliesTo[${i}].${k}`, 'unknown field (allowed: product, versions)']);
      if (!PRODUCTS.includes(a.product)) p.push([`appliesTo[${i}].product`, `must be one of ${PRODUCTS.join(', ')}`]);
      const r = rangeError(a.versions);
      if (r) p.push([`appliesTo[${i}].versions`, r]);
    });
  if (!Array.isArray(e.sources) || e.sources.length === 0) p.push(['sources', 'required non-empty list of {title, url?, ref?, date?}']);
  else
    e.sources.forEach((s, i) => {
      if (!isPlainObject(s)) return void p.push([`sources[${i}]`, 'must be a mapping {title, url?, ref?, date?}']);
      for (const k of Object.keys(s)) if (!SOURCE_KEYS.includes(k)) p.push([`sources[${i}].${k}`, 'unknown field (allowed: title, url, ref, date)']);
      if (!isStr(s.title)) p.push([`sources[${i}].title`, 'required string']);
      for (const k of ['url', 'ref', 'date'])
        if (s[k] !== undefined && !isStr(s[k])) p.push([`sources[${i}].${k}`, 'must be a non-empty string (quote dates like "2024-05")']);
      if (s.url === undefined && s.ref === undefined) p.push([`sources[${i}]`, 'needs a url or a ref (repo + path)']);
    });
  if (!isStr(e.rationale)) p.push(['rationale', 'required non-empty string']);
  if (e.configKeys !== undefined) p.push(...configKeyProblems(e.configKeys));
  if (e.verified !== undefined) {
    const v = e.verified;
    if (!isPlainObject(v)) p.push(['verified', 'must be a mapping {source, checked}']);
    else {
      for (const k of Object.keys(v)) if (!VERIFIED_KEYS.includes(k)) p.push([`verified.${k}`, 'unknown field (allowed: source, checked)']);
      if (!isStr(v.source)) p.push(['verified.source', `required: ${VERIFIED_SOURCE_HELP}`]);
      else if (!verifiedSourceOk(v.source)) p.push(['verified.source', `"${v.source.slice(0, 80)}" names no tag or section: ${VERIFIED_SOURCE_HELP}`]);
      if (typeof v.checked !== 'string' || !ISO_DATE.test(v.checked)) p.push(['verified.checked', 'required: the date of the check, "YYYY-MM-DD" (quoted)']);
    }
  }
  for (const k of ['related', 'tags']) {
    if (e[k] === undefined) continue;
    if (!Array.isArray(e[k]) || e[k].some((x) => !isStr(x))) p.push([k, 'must be a list of non-empty strings']);
  }
  return p;
}

/** Canonical key order (types.ts), absent fields dropped. */
function canonical(e) {
  const out = {};
  const put = (k, v) => {
    if (v !== undefined) out[k] = v;
  };
  put('id', e.id);
  put('statement', e.statement);
  put('value', e.value);
  if (e.thresholds) {
    const t = {};
    for (const k of THRESHOLD_KEYS) if (e.thresholds[k] !== undefined) t[k] = e.thresholds[k];
    out.thresholds = t;
  }
  put('unit', e.unit);
  out.appliesTo = e.appliesTo.map((a) => ({ product: a.product, versions: a.versions }));
  out.sources = e.sources.map((s) => {
    const o = {};
    for (const k of SOURCE_KEYS) if (s[k] !== undefined) o[k] = s[k];
    return o;
  });
  put('rationale', e.rationale);
  put('related', e.related);
  put('tags', e.tags);
  if (e.verified) out.verified = { source: e.verified.source, checked: e.verified.checked };
  if (e.configKeys) {
    out.configKeys = e.configKeys.map((r) => {
      const o = {};
      for (const k of CONFIG_KEY_KEYS) if (r[k] !== undefined) o[k] = r[k];
      return o;
    });
  }
  return out;
}

/**
 * Reads and validates knowledge/*.yaml. Returns { entries: [{ file, entry }], errors: string[] }; each
 * error names the file, the entry (index and id) and the field.
 */
export function loadKnowledge(dir = KNOWLEDGE_DIR) {
  const errors = [];
  // Entries without a verified record: generation still writes them (so work in progress runs), --check refuses.
  const unverified = [];
  const entries = [];
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.yaml'))
        .sort()
    : [];
  if (files.length === 0) errors.push(`${relative(ROOT, dir)}: no *.yaml files`);
  for (const f of files) {
    const rel = relative(ROOT, join(dir, f));
    const doc = YAML.parseDocument(readFileSync(join(dir, f), 'utf8'), { prettyErrors: true, uniqueKeys: true });
    if (doc.errors.length) {
      for (const err of doc.errors) errors.push(`${rel}: YAML error: ${err.message}`);
      continue;
    }
    const list = doc.toJS();
    if (!Array.isArray(list)) {
      errors.push(`${rel}: must be a YAML list of entries (found ${list === null ? 'an empty file' : typeof list})`);
      continue;
    }
    list.forEach((e, i) => {
      const label = `${rel}: entry #${i + 1}${isPlainObject(e) && isStr(e.id) ? ` (${e.id})` : ''}`;
      const problems = entryProblems(e);
      for (const [field, msg] of problems) errors.push(`${label}: field "${field}": ${msg}`);
      if (problems.length === 0) entries.push({ file: rel, entry: canonical(e) });
      if (isPlainObject(e) && e.verified === undefined) unverified.push(`${label}: field "verified": ${MISSING_VERIFIED}`);
    });
  }
  // Duplicate ids and dangling related ids, across all files.
  const seen = new Map();
  for (const { file, entry } of entries) {
    const prev = seen.get(entry.id);
    if (prev) errors.push(`${file}: entry (${entry.id}): field "id": duplicate id, already defined in ${prev}`);
    else seen.set(entry.id, file);
  }
  for (const { file, entry } of entries) {
    for (const r of entry.related ?? []) {
      if (!seen.has(r)) errors.push(`${file}: entry (${entry.id}): field "related": unknown id "${r}"`);
      if (r === entry.id) errors.push(`${file}: entry (${entry.id}): field "related": an entry cannot relate to itself`);
    }
  }
  entries.sort((a, b) => (a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0));
  return { entries, errors, unverified };
}

/** The generated TypeScript for these entries (pure: same entries → same text). */
export function render(entries) {
  const body = entries.map(({ file, entry }) => `  // ${file}\n` + JSON.stringify(entry, null, 2).replace(/^/gm, '  ') + ',').join('\n');
  return (
    '// generated by scripts/gen-knowledge.mjs from knowledge/*.yaml — do not edit\n' +
    '// Change the YAML and run: node scripts/gen-knowledge.mjs\n' +
    "import type { KnowledgeEntry } from './types.js';\n\n" +
    `export const ENTRIES: readonly KnowledgeEntry[] = [\n${body}\n];\n\n` +
    '/** Every knowledge id: a mistyped id in knowledge(), threshold(), numberOf() or valueOf() fails to compile. */\n' +
    `export type KnowledgeId =\n${entries.map(({ entry }) => `  | ${JSON.stringify(entry.id)}`).join('\n')};\n`
  );
}

function main(argv) {
  const check = argv.includes('--check');
  const unknown = argv.filter((a) => a !== '--check');
  if (unknown.length) {
    console.error(`gen-knowledge: unknown argument(s) ${unknown.join(' ')} (usage: node scripts/gen-knowledge.mjs [--check])`);
    return 2;
  }
  const { entries, errors, unverified } = loadKnowledge();
  if (errors.length) {
    console.error(`gen-knowledge: ${errors.length} problem(s) in knowledge/*.yaml:`);
    for (const e of errors) console.error(`  ${e}`);
    return 1;
  }
  const text = render(entries);
  const rel = relative(ROOT, OUTPUT);
  if (unverified.length) {
    const what = `${unverified.length} entr${unverified.length === 1 ? 'y has' : 'ies have'} no verified record`;
    console.error(`gen-knowledge: ${what}${check ? '' : ' (--check refuses them)'}:`);
    for (const u of unverified) console.error(`  ${u}`);
    if (check) return 1;
  }
  if (check) {
    const current = existsSync(OUTPUT) ? readFileSync(OUTPUT, 'utf8') : null;
    if (current !== text) {
      console.error(`gen-knowledge: ${rel} is ${current === null ? 'missing' : 'stale'}; run: node scripts/gen-knowledge.mjs`);
      return 1;
    }
    console.log(`gen-knowledge: ${rel} is up to date (${entries.length} entries)`);
    return 0;
  }
  const current = existsSync(OUTPUT) ? readFileSync(OUTPUT, 'utf8') : null;
  if (current !== text) writeFileSync(OUTPUT, text);
  console.log(`gen-knowledge: ${entries.length} entries → ${rel}${current === text ? ' (unchanged)' : ''}`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
