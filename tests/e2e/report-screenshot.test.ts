/**
 * The HTML report of a real lab incident (tests/fixtures/lab-incidents/tombstones) opened in a real browser
 * (Debian's chromium, driven by playwright-core; no browser is ever downloaded): the top finding is visible text,
 * the charts are drawn, nothing is fetched, hostile cluster text shows as text and runs nothing, and a screenshot
 * (test-artifacts/diagnose-report.png, for people to look at) decodes to a page with real content.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PNG } from 'pngjs';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiagnosisReport } from '../../mcp-server/src/ops/diagnose.js';
import { renderReportHtml } from '../../mcp-server/src/render/report/html.js';

// CQL_TUNER_CHROMIUM: another chromium binary (trusted: the developer's own environment); Debian's by default.
const CHROMIUM = process.env.CQL_TUNER_CHROMIUM ?? '/usr/bin/chromium';
const have = existsSync(CHROMIUM);
if (!have) process.stderr.write(`note: ${CHROMIUM} is missing, so the report screenshot test is skipped (apt-get install -y chromium; .ci/run installs it)\n`);

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'lab-incidents', 'tombstones', 'diagnose.json');
const ARTIFACTS = resolve(import.meta.dirname, '..', '..', 'test-artifacts');
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const VIEW = { width: 1000, height: 1400 };
const incident = (): DiagnosisReport => JSON.parse(readFileSync(FIXTURE, 'utf8')) as DiagnosisReport;

describe.skipIf(!have)('the HTML report in a real browser', () => {
  const profile = mkdtempSync(join(tmpdir(), 'cql-tuner-chromium-'));
  let context: BrowserContext;
  const requests: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    // A fresh profile folder per run: nothing from an earlier browser session can leak into what is measured.
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, viewport: VIEW, deviceScaleFactor: 1 });
    context.on('request', (r) => requests.push(r.url()));
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  async function open(r: DiagnosisReport, name: string): Promise<{ page: Page; url: string; dialogs: string[] }> {
    const file = join(ARTIFACTS, name);
    writeFileSync(file, renderReportHtml(r, 'cql-tuner test'));
    const url = pathToFileURL(file).href;
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(url, { waitUntil: 'load' });
    return { page, url, dialogs };
  }

  it('shows the top finding, draws every chart, fetches nothing, and screenshots to a non-blank PNG', async () => {
    const r = incident();
    requests.length = 0;
    const { page, url } = await open(r, 'diagnose-report.html');
    const top = page.locator('section.finding .title').first();
    expect(await top.textContent()).toBe(r.findings[0]!.title);
    expect(await top.isVisible()).toBe(true);
    expect(await page.title()).toBe(`cql-tuner diagnosis: ${r.findings[0]!.title}`);
    // Seven window charts, each laid out at a readable size.
    const charts = page.locator('figure svg');
    expect(await charts.count()).toBe(7);
    for (const box of await Promise.all((await charts.all()).map((c) => c.boundingBox()))) expect(box!.width).toBeGreaterThan(500);
    // The page itself is the only request: no font, image, style or script from anywhere.
    expect(requests).toEqual([url]);

    const png = join(ARTIFACTS, 'diagnose-report.png');
    await page.screenshot({ path: png });
    const img = PNG.sync.read(readFileSync(png));
    expect([img.width, img.height]).toEqual([VIEW.width, VIEW.height]);
    const colours = new Set<number>();
    let ink = 0;
    for (let i = 0; i < img.data.length; i += 4) {
      const [r0, g, b] = [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
      colours.add((r0 << 16) | (g << 8) | b);
      if (r0 + g + b < 600) ink++;
    }
    const inkShare = ink / (img.width * img.height);
    // Text, the severity badges and borders: many colours and some ink, but far from a filled or empty page.
    expect(colours.size).toBeGreaterThan(100);
    expect(inkShare).toBeGreaterThan(0.02);
    expect(inkShare).toBeLessThan(0.6);
    await page.screenshot({ path: join(ARTIFACTS, 'diagnose-report-full.png'), fullPage: true });
    await page.close();
  }, 60_000);

  it('shows hostile cluster text as text and runs none of it', async () => {
    const r = incident();
    const f = r.findings[0]!;
    const script = `<script>document.title='pwned';alert(1)</script>`;
    const img = `<img src=x onerror="document.title='pwned'">`;
    r.findings[0] = { ...f, title: `Reads of ${script} scanned`, table: img };
    r.window!.nodes[0]!.node = `<svg onload="alert(2)">`;
    requests.length = 0;
    const { page, url, dialogs } = await open(r, 'diagnose-report-hostile.html');
    expect(await page.locator('section.finding .title').first().textContent()).toBe(`Reads of ${script} scanned`);
    const text = await page.locator('body').innerText();
    expect(text).toContain(img);
    expect(text).toContain('<svg onload="alert(2)">');
    expect(await page.title()).not.toBe('pwned');
    expect(await page.locator('script, img, body > svg').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(requests).toEqual([url]);
    await page.close();
  }, 60_000);
});
