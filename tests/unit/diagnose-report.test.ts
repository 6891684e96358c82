/**
 * `diagnose --report FILE.md|FILE.html` on a real lab incident (tests/fixtures/lab-incidents/tombstones: the
 * recorded --json of a tombstones incident under load, and the bundle that run saved): what the report says,
 * that untrusted cluster text never becomes markup, and that the file is written whole and never through a link.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { diagnoseCommand } from '../../mcp-server/src/cli/commands/diagnose.js';
import { writeReportFile } from '../../mcp-server/src/collect/report-file.js';
import type { TableFact } from '../../mcp-server/src/core/facts/node-facts.js';
import { checkReportPath, reportFormatOf, writeDiagnosisReport } from '../../mcp-server/src/ops/diagnose-report.js';
import { nodeRecentLatency } from '../../mcp-server/src/ops/diagnose-window.js';
import type { DiagnosisReport } from '../../mcp-server/src/ops/diagnose.js';
import { escapeMarkdown } from '../../mcp-server/src/render/report/escape.js';
import { renderReportHtml } from '../../mcp-server/src/render/report/html.js';
import { renderReportMarkdown } from '../../mcp-server/src/render/report/markdown.js';
import { windowCharts } from '../../mcp-server/src/render/report/window-charts.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'lab-incidents', 'tombstones');
const incident = (): DiagnosisReport => JSON.parse(readFileSync(join(FIXTURE, 'diagnose.json'), 'utf8')) as DiagnosisReport;
const tmp = mkdtempSync(join(tmpdir(), 'cql-tuner-report-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the report of a real tombstones incident', () => {
  const r = incident();
  const md = renderReportMarkdown(r, 'cql-tuner test');
  const html = renderReportHtml(r, 'cql-tuner test');

  it('leads with the summary: cluster, nodes, versions, when and the window', () => {
    for (const doc of [md, html]) {
      expect(doc).toContain('cql-tuner lab — local lab');
      expect(doc).toContain('127.0.8.1 (datacenter1)');
      expect(doc).toContain('5.0.9');
      expect(doc).toContain(r.collectedAt);
      expect(doc).toContain('24.4 s between two sweeps (asked 20 s), from 2026-11-24T20:12:51.044Z');
    }
    const since = { from: '2026-11-24T20:00:00.000Z', seconds: 780, logs: 'restricted to the period' as const, metrics: 'no Prometheus configured' };
    expect(renderReportHtml({ ...r, since }, 'x')).toContain(
      '<tr><td>Incident period</td><td>from 2026-11-24T20:00:00.000Z (780 s): logs restricted to the period; metrics no Prometheus configured</td></tr>',
    );
    expect(md).not.toContain('Incident period');
    expect(md.split('\n')[0]).toBe('# cql-tuner diagnosis: Reads of cql_tuner_incident.queue scanned up to 3311 tombstones');
  });

  it('gives every finding worst first with its evidence, sources, recommendation and knowledge', () => {
    const at = r.findings.map((f) => md.indexOf(escapeMarkdown(f.title)));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(md).toContain('- Sources: system_views.tombstones_per_read, nodetool tablestats, log');
    expect(md).toContain('p50 3311, p99 3311, max 3311 over 2741 reads');
    expect(md).toContain(`- Recommendation: ${escapeMarkdown(r.findings[0]!.recommendation)}`);
    expect(md).toContain('- Knowledge: `jvm.safepoint.time-to-safepoint`, `jvm.gc.pause`');
    // Each cited id is resolved to its statement and sources from knowledge/.
    expect(md).toMatch(/## Knowledge cited\n\n- `jvm\.gc\.pause`: .+\n {2}- /);
    expect(html.match(/<section class="finding f-warning">/g)).toHaveLength(3);
  });

  it('says what was checked and what could not be, with the reason', () => {
    expect(md).toContain('## Not checked (2)');
    expect(md).toContain('`outliers`: ');
    expect(md).toContain('not checked: needs at least 3 reachable nodes to compare (have 1)');
    expect(html).toContain('not checked: needs at least 3 reachable nodes to compare (have 1)');
    expect(md.match(/^- ✓ `/gm)).toHaveLength(r.checked.filter((c) => c.checked).length);
  });

  it('draws the window: ops/s, latency, GC, disk await and utilisation, CPU; inline, nothing fetched', () => {
    const titles = windowCharts(r.window!, r.collectedAt).map((c) => c.title);
    expect(titles).toEqual([
      'Local reads + writes per node',
      'Coordinator requests per node',
      'p99 latency per node (worst user table)',
      'GC pause time per node',
      'Disk await',
      'Disk utilisation',
      'CPU busy and iowait per host',
    ]);
    expect(html.match(/<svg /g)).toHaveLength(titles.length);
    expect(md.match(/!\[[^\]]*\]\(data:image\/svg\+xml;base64,/g)).toHaveLength(titles.length);
    // The ops/s chart is the measured mean: a flat line at 100.5 coordinator reads/s from window start to end.
    const coord = windowCharts(r.window!, r.collectedAt)[1]!.svg;
    const path = /<path d="M([\d.]+),([\d.]+) L([\d.]+),([\d.]+)"/.exec(coord);
    expect(path?.[2]).toBe(path?.[4]);
    expect(Number(path?.[3])).toBeGreaterThan(Number(path?.[1]));
    // The 0.088 ms p99 sits on an axis labelled 0.025 … 0.1 ms (not 0.0, 0.1, 0.1), and the last clock label ends
    // at the plot's edge rather than being cut off.
    const latency = windowCharts(r.window!, r.collectedAt)[2]!.svg;
    expect([...latency.matchAll(/text-anchor="end">([\d.]+)<\/text>/g)].map((m) => m[1])).toEqual(['0.0', '0.025', '0.05', '0.075', '0.1']);
    expect(latency).toContain('text-anchor="end">20:13:15</text>');
  });

  it('names where the raw outputs are', () => {
    expect(md).toContain(`bundle, re-diagnose with \\\`cql-tuner diagnose --bundle DIR\\\`): ${r.bundleDir}`);
    const { bundleDir: _b, ...unsaved } = r;
    expect(renderReportHtml(unsaved, 'x')).toContain('Raw outputs were not saved: run diagnose with --save DIR');
  });

  it('is one self-contained HTML page: no script, no external resource, a CSP that forbids both', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\s(src|href|srcset|action|formaction)\s*=/i);
    expect(html).not.toMatch(/url\(|@import|<link|<iframe|<object|<embed/i);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`);
  });
});

describe('untrusted cluster text stays text', () => {
  const hostile = (): DiagnosisReport => {
    const r = incident();
    const f = r.findings[0]!;
    r.findings[0] = {
      ...f,
      title: 'Reads of <script>alert(1)</script> scanned up to 3311 tombstones',
      table: '<img src=x onerror=alert(2)>',
      evidence: ['[click](javascript:alert(3)) & <b>bold</b>', '# not a heading\n- not an item'],
    };
    r.window!.nodes[0]!.node = '<svg onload=alert(4)>';
    r.clusterName = '"><script>alert(5)</script>';
    return r;
  };

  it('in HTML every value is escaped', () => {
    const html = renderReportHtml(hostile(), 'x');
    expect(html).not.toMatch(/<script|<img|<b>|<svg onload/i);
    expect(html).toContain('Reads of &lt;script&gt;alert(1)&lt;/script&gt; scanned');
    expect(html).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(html).toContain('[click](javascript:alert(3)) &amp; &lt;b&gt;bold&lt;/b&gt;');
    expect(html).toContain('&quot;&gt;&lt;script&gt;alert(5)&lt;/script&gt;');
  });

  it('in Markdown no tag, link, heading or list item can be started by a value', () => {
    const md = renderReportMarkdown(hostile(), 'x');
    // Every < and [ a value brought is backslash-escaped, so none opens a tag or a link.
    expect(md).not.toMatch(/(?<!\\)<(script|img|b>|svg)|(?<!\\)\]\(javascript/i);
    expect(md).toContain('Reads of \\<script\\>alert(1)\\</script\\> scanned');
    expect(md).toContain('  - \\[click\\](javascript:alert(3)) \\& \\<b\\>bold\\</b\\>');
    expect(md).toContain('  - \\# not a heading - not an item');
  });
});

describe('writing the report file', () => {
  it('writes the whole file through a temporary sibling and replaces an existing one', async () => {
    const dir = mkdtempSync(join(tmp, 'w-'));
    writeFileSync(join(dir, 'a.md'), 'old');
    const w = await writeReportFile(join(dir, 'a.md'), 'new report');
    expect(w).toEqual({ ok: true, path: join(dir, 'a.md'), bytes: 10 });
    expect(readFileSync(join(dir, 'a.md'), 'utf8')).toBe('new report');
    expect(readdirSync(dir)).toEqual(['a.md']);
  });

  it('refuses a symbolic link and leaves both the link and its target alone', async () => {
    const dir = mkdtempSync(join(tmp, 'l-'));
    writeFileSync(join(dir, 'victim'), 'keep');
    symlinkSync(join(dir, 'victim'), join(dir, 'r.html'));
    const w = await writeReportFile(join(dir, 'r.html'), 'x');
    expect(w).toMatchObject({ ok: false, code: 'NOT_A_FILE' });
    expect(w.ok ? '' : w.message).toContain('is a symbolic link');
    expect(readFileSync(join(dir, 'victim'), 'utf8')).toBe('keep');
    expect(readlinkSync(join(dir, 'r.html'))).toBe(join(dir, 'victim'));
    expect(readdirSync(dir).sort()).toEqual(['r.html', 'victim']);
  });

  it('refuses a FIFO and a directory, a missing folder and /proc', async () => {
    const dir = mkdtempSync(join(tmp, 's-'));
    execFileSync('mkfifo', [join(dir, 'pipe.md')]);
    mkdirSync(join(dir, 'folder.md'));
    expect(await writeReportFile(join(dir, 'pipe.md'), 'x')).toMatchObject({ ok: false, code: 'NOT_A_FILE' });
    expect(lstatSync(join(dir, 'pipe.md')).isFIFO()).toBe(true);
    expect(await writeReportFile(join(dir, 'folder.md'), 'x')).toMatchObject({ ok: false, code: 'NOT_A_FILE' });
    const missing = await writeReportFile(join(dir, 'no', 'such', 'r.md'), 'x');
    expect(missing).toMatchObject({ ok: false, code: 'BAD_PATH' });
    expect(missing.ok ? '' : missing.message).toContain(`its folder ${join(dir, 'no', 'such')} does not exist`);
    expect(await writeReportFile('/proc/self/report.md', 'x')).toMatchObject({ ok: false, code: 'BAD_PATH' });
  });

  it('takes the format from the extension and refuses others with the fix', async () => {
    expect(reportFormatOf('a/incident.MD')).toBe('markdown');
    expect(reportFormatOf('incident.htm')).toBe('html');
    expect(() => reportFormatOf('incident.txt')).toThrow(/cannot tell the report format of "incident.txt"/);
    const dir = mkdtempSync(join(tmp, 'c-'));
    symlinkSync('/etc/passwd', join(dir, 'x.md'));
    await expect(checkReportPath(join(dir, 'x.md'))).rejects.toMatchObject({ code: 'NOT_A_FILE' });
    await expect(checkReportPath(join(dir, 'nope', 'x.md'))).rejects.toMatchObject({ code: 'BAD_PATH' });
    const w = await writeDiagnosisReport(incident(), join(dir, 'ok.html'));
    expect(w).toMatchObject({ format: 'html', path: join(dir, 'ok.html') });
    expect(readFileSync(w.path, 'utf8').startsWith('<!DOCTYPE html>')).toBe(true);
  });
});

describe('cql-tuner diagnose --report', () => {
  const out: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    out.length = 0;
    process.exitCode = undefined;
  });
  const run = async (args: string[]) => {
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => (out.push(String(s)), true));
    await diagnoseCommand().exitOverride().parseAsync(args, { from: 'user' });
  };

  it('re-diagnoses the incident bundle and writes the Markdown report next to the text', async () => {
    const file = join(mkdtempSync(join(tmp, 'cli-')), 'incident.md');
    await run(['--bundle', join(FIXTURE, 'bundle'), '--report', file]);
    const md = readFileSync(file, 'utf8');
    expect(md).toMatch(/^# cql-tuner diagnosis: Reads of cql_tuner_incident\.queue scanned up to 3311 tombstones\n/);
    expect(md).toContain(`: ${join(FIXTURE, 'bundle')}`);
    expect(out.join('')).toContain(`Report (markdown, ${Buffer.byteLength(md)} bytes): ${file}`);
  });

  it('refuses a bad report path before collecting anything', async () => {
    // The bundle does not exist either: the report path is checked first, so that is not what is reported.
    await run(['--bundle', join(tmp, 'no-bundle'), '--report', join(tmp, 'no-dir', 'r.html')]);
    expect(out.join('')).toContain(`error [BAD_PATH]: cannot write the report ${join(tmp, 'no-dir', 'r.html')}`);
    expect(process.exitCode).toBe(2);
  });
});

describe('per-node latency of the window', () => {
  const t = (keyspace: string, table: string, f: Partial<TableFact>): TableFact => ({ keyspace, table, ...f });
  const lat = (p99Ms: number) => ({ count: 1, p50Ms: null, p99Ms, maxMs: null, perSecond: null });

  it('takes the worst user table, coordinator figures before replica ones, never a system table', () => {
    const tables = [
      t('system', 'local', { coordinatorRead: lat(90) }),
      t('ks', 'a', { coordinatorRead: lat(3), localRead: lat(50) }),
      t('ks', 'b', { coordinatorRead: lat(7), coordinatorWrite: lat(1) }),
    ];
    expect(nodeRecentLatency('n1', tables)).toEqual({ node: 'n1', readP99Ms: 7, readTable: 'ks.b', writeP99Ms: 1, writeTable: 'ks.b', scope: 'coordinator' });
    expect(nodeRecentLatency('n1', [t('ks', 'a', { localRead: lat(5) })])).toMatchObject({ readP99Ms: 5, scope: 'local' });
    expect(nodeRecentLatency('n1', [])).toMatchObject({ readP99Ms: null, writeP99Ms: null, scope: null });
  });
});
