/**
 * cassandra-stress credentials: the java.util.Properties escaper (checked against the spec, a round trip and,
 * where a JDK is installed, the real Properties.load), the -credentials-file probe, and whole runs with fake
 * cassandra-stress scripts — a new one (answers `help -credentials-file`, records its argv, the file's mode and
 * content while it runs) and an old one (answers "Invalid …", so the password goes on the command line with a
 * warning).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pidAlive, probeCredentialsFile, runsDir, sweepStalePrivateDirs, writePrivateFile } from '../../mcp-server/src/collect/stress-runner.js';
import { credentialsFileSupported, credentialsFileText } from '../../mcp-server/src/core/stress/argv-cassandra-stress.js';
import { escapePropertiesKey, escapePropertiesValue, parseProperties, propertiesText } from '../../mcp-server/src/core/stress/java-properties.js';
import { startStress, stressCancel, stressStatus, waitForRun } from '../../mcp-server/src/ops/stress.js';

const tmp = mkdtempSync(join(tmpdir(), 'cql-tuner-stress-cred-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SENTINEL = 'SeNtInEl-cs-9d1e';
const PASSWORD = `${SENTINEL} =:#!\\ pä密🔑`;

// Values that each break a naive writer: separators, comment starts, backslashes (a trailing one would be a
// line continuation), leading/trailing blanks, line breaks, control characters, Latin-1, non-Latin-1 and an
// astral character (a UTF-16 surrogate pair, written as two \u escapes).
const ROUND_TRIP: [string, string][] = [
  ['cql.username', 'cassandra'],
  ['cql.password', ''],
  ['k1', 'a=b:c'],
  ['k2', '#not a comment'],
  ['k3', '!nor this'],
  ['k4', '\\'],
  ['k5', 'back\\slash\\u0041'],
  ['k6', '  two leading, two trailing  '],
  ['k7', 'line1\nline2\r\nline3\ttab\fff'],
  ['k8', '\u0000\u0001\u001f\u007f'],
  ['k9', 'pässwörd€'],
  ['k10', '密码🔑'],
  ['key with spaces=and:seps#!', ' v '],
  ['cql.password', PASSWORD],
];

describe('java.util.Properties escaping', () => {
  it('escapes as Properties.store does: separators, comment marks, backslash, leading space, controls, \\uXXXX', () => {
    expect(escapePropertiesValue('plain-ASCII_1.2')).toBe('plain-ASCII_1.2');
    expect(escapePropertiesValue('a=b:c#d!e')).toBe('a\\=b\\:c\\#d\\!e');
    expect(escapePropertiesValue('\\')).toBe('\\\\');
    expect(escapePropertiesValue('  x y ')).toBe('\\  x y ');
    expect(escapePropertiesKey(' x y ')).toBe('\\ x\\ y\\ ');
    expect(escapePropertiesValue('a\nb\r\tc\f')).toBe('a\\nb\\r\\tc\\f');
    expect(escapePropertiesValue('\u0000\u007f')).toBe('\\u0000\\u007F');
    expect(escapePropertiesValue('ä€')).toBe('\\u00E4\\u20AC');
    expect(escapePropertiesValue('🔑')).toBe('\\uD83D\\uDD11');
    expect(
      propertiesText([
        ['cql.username', 'u'],
        ['cql.password', 'p w'],
      ]),
    ).toBe('cql.username=u\ncql.password=p w\n');
  });

  it('every escaped file is one printable-ASCII line per entry and reads back to the same key and value', () => {
    for (const [k, v] of ROUND_TRIP) {
      const text = propertiesText([[k, v]]);
      expect(text).toMatch(/^[\x20-\x7e]*\n$/);
      expect([...parseProperties(text)]).toEqual([[k, v]]);
    }
  });

  it('the reader follows Properties.load: comments, blank lines, continuations, whitespace or ":" separators', () => {
    const m = parseProperties('# c\n! c\n\n  a = 1\nb:2\nc 3\nd = con\\\n   tinued\ne = \\\\\nf\n');
    expect(Object.fromEntries(m)).toEqual({ a: '1', b: '2', c: '3', d: 'continued', e: '\\', f: '' });
    // A continuation inside a key joins the key; an escaped backslash at the end is not a continuation.
    expect(Object.fromEntries(parseProperties('x\\\n  y=1\nz\\\\\n'))).toEqual({ xy: '1', 'z\\': '' });
  });

  // The real reader: java.util.Properties.load(InputStream), as SettingsCredentials uses it.
  const java = (() => {
    try {
      execFileSync('java', ['-version'], { stdio: 'ignore', timeout: 20_000 });
      return true;
    } catch {
      return false;
    }
  })();
  it.skipIf(!java)(
    'java.util.Properties.load reads every value back exactly (JDK on PATH)',
    () => {
      const dir = join(tmp, 'java');
      mkdirSync(dir, { recursive: true });
      const entries = ROUND_TRIP.map(([, v], i) => [`key${i}`, v] as [string, string]);
      entries.push(['key with spaces=and:seps#!', ' v ']);
      writeFileSync(join(dir, 'c.properties'), propertiesText(entries));
      writeFileSync(
        join(dir, 'Load.java'),
        `import java.io.*; import java.util.*;
public class Load { public static void main(String[] a) throws Exception {
  Properties p = new Properties(); try (InputStream in = new FileInputStream(a[0])) { p.load(in); }
  for (String k : new TreeSet<>(p.stringPropertyNames())) { StringBuilder sb = new StringBuilder();
    for (char c : k.toCharArray()) sb.append(String.format("%04x ", (int) c));
    sb.append("|");
    for (char c : p.getProperty(k).toCharArray()) sb.append(String.format(" %04x", (int) c));
    System.out.println(sb); } } }\n`,
      );
      const out = execFileSync('java', [join(dir, 'Load.java'), join(dir, 'c.properties')], { encoding: 'utf8', timeout: 60_000 });
      const got = out
        .trim()
        .split('\n')
        .map(
          (line) =>
            line.split('|').map((half) =>
              String.fromCharCode(
                ...half
                  .trim()
                  .split(' ')
                  .filter(Boolean)
                  .map((h) => parseInt(h, 16)),
              ),
            ) as [string, string],
        );
      const want = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      expect(got).toEqual(want);
    },
    90_000,
  );
});

describe('-credentials-file probe answer', () => {
  const usage =
    "Usage: -credentials-file <file> \nFile is supposed to be a standard property file with 'cql.username', 'cql.password', 'jmx.username', 'jmx.password', 'transport.keystore.password', and 'transport.truststore.password' as keys. The values for these keys will be overriden by their command-line counterparts when specified.\n";
  const oldHelp =
    'Usage:      cassandra-stress <command> [options]\nHelp usage: cassandra-stress help <command>\n\n---Options---\n-mode                 : Thrift or CQL with options\nInvalid command or option provided to command help\n';
  it.each([
    ['the option usage line, exit 0', usage, 0, false, true],
    ['the same with JVM noise before it', `Picked up JAVA_TOOL_OPTIONS: -Xmx1g\n${usage}`, 0, false, true],
    ['the usage line but a non-zero exit', usage, 1, false, false],
    ['the usage line but timed out', usage, null, true, false],
    ['old release: general help and "Invalid …"', oldHelp, 1, false, false],
    ['old release printing "Invalid" with exit 0', oldHelp, 0, false, false],
    ['the general help of a new release (option only in the list)', '---Options---\n-credentials-file     : Credentials file\n', 0, false, false],
    ['garbage', '\u0000\u00ff{"x":1}', 0, false, false],
    ['nothing', '', 0, false, false],
  ])('%s', (_what, output, code, timedOut, want) => {
    expect(credentialsFileSupported(output, code, timedOut)).toBe(want);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Fake cassandra-stress binaries

interface Recorded {
  argv: string[];
  file: string | null;
  fileMode: string | null;
  dirMode: string | null;
  content: string | null;
  secretInEnv: boolean;
}

/** A fake cassandra-stress (node script): records every non-help call; `help` answers per `kind`. */
function fakeStress(name: string, kind: 'new' | 'old' | 'slow' | 'garbage'): { bin: string; log: string; probes: string; pidFile: string } {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  const bin = join(dir, 'cassandra-stress');
  const log = join(dir, 'calls.jsonl');
  const probes = join(dir, 'probes.txt');
  const pidFile = join(dir, 'probe.pid');
  const help =
    kind === 'new'
      ? `process.stdout.write(${JSON.stringify("Usage: -credentials-file <file> \nFile is supposed to be a standard property file with 'cql.username', 'cql.password', 'jmx.username', 'jmx.password', 'transport.keystore.password', and 'transport.truststore.password' as keys. The values for these keys will be overriden by their command-line counterparts when specified.\n")}); process.exit(0);`
      : kind === 'old'
        ? `process.stdout.write('Usage:      cassandra-stress <command> [options]\\nHelp usage: cassandra-stress help <command>\\n\\n---Options---\\n-mode                 : Thrift or CQL with options\\n'); process.stdout.write('Invalid command or option provided to command help\\n'); process.exit(1);`
        : kind === 'slow'
          ? `fs.writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(() => {}, 60000); return;`
          : `process.stdout.write('\\u0000\\u00ff Exception in thread main\\n'); process.exit(0);`;
  writeFileSync(
    bin,
    `#!${process.execPath}
const fs = require('node:fs'), path = require('node:path');
const argv = process.argv.slice(2);
(function main() {
  if (argv[0] === 'help') {
    fs.appendFileSync(${JSON.stringify(probes)}, argv.join(' ') + '\\n');
    ${help}
  }
  const i = argv.indexOf('-credentials-file');
  const file = i >= 0 ? argv[i + 1] : null;
  const mode = (p) => (fs.statSync(p).mode & 0o777).toString(8);
  const rec = { argv, file, fileMode: file ? mode(file) : null, dirMode: file ? mode(path.dirname(file)) : null, content: file ? fs.readFileSync(file, 'latin1') : null,
    secretInEnv: Object.values(process.env).some((v) => v.includes(${JSON.stringify(SENTINEL)})) };
  fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify(rec) + '\\n');
  if (argv.includes('n=13')) { process.stderr.write('java.lang.RuntimeException: boom\\n'); process.exit(1); }
  if (argv.includes('n=999')) { setTimeout(() => {}, 60000); return; }
  process.stdout.write('Results:\\nOp rate                   :    1,000 op/s  [WRITE: 1,000 op/s]\\n');
})();
`,
  );
  chmodSync(bin, 0o755);
  return { bin, log, probes, pidFile };
}

const calls = (log: string): Recorded[] =>
  existsSync(log)
    ? readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Recorded)
    : [];

const probeCount = (probes: string) => (existsSync(probes) ? readFileSync(probes, 'utf8').trim().split('\n').filter(Boolean).length : 0);

const env = { CQL_TUNER_HOME: join(tmp, 'home'), PATH: '', CQL_TUNER_CQL_USERNAME: 'stress_user', CQL_TUNER_CQL_PASSWORD: PASSWORD };
const params = (port: number, n = 100) => ({
  tool: 'cassandra-stress' as const,
  workload: 'read' as const,
  nodes: ['127.0.0.1'],
  port,
  n,
  population: { distribution: 'uniform' as const, size: 50 },
  snapshots: 'none' as const,
});

/** Every file of the run folder as text (argv.json, status.json, result.json, step outputs). */
function runFiles(dir: string): string {
  return ['argv.json', 'status.json', 'result.json', 'load.out.txt', 'run.out.txt', 'load.err.txt', 'run.err.txt']
    .filter((f) => existsSync(join(dir, f)))
    .map((f) => readFileSync(join(dir, f), 'latin1'))
    .join('\n');
}

describe('run_stress with a cassandra-stress that has -credentials-file', () => {
  const fake = fakeStress('new', 'new');

  it('passes a private 0600 properties file in a 0700 temp folder, no password in argv, and removes it after', async () => {
    const saved = process.env['CQL_TUNER_CQL_PASSWORD'];
    process.env['CQL_TUNER_CQL_PASSWORD'] = PASSWORD; // a child must not inherit it either
    try {
      const started = await startStress({ ...params(19042), binary: fake.bin }, { env });
      expect(started.credentials).toBe('file');
      expect(started.warnings).toEqual([]);
      const result = await waitForRun(started.id);
      expect(result.state).toBe('finished');
      const recs = calls(fake.log);
      expect(recs.map((r) => r.argv[0])).toEqual(['write', 'read']); // load step, then the run
      for (const r of recs) {
        expect(r.argv.join(' ')).not.toContain(SENTINEL);
        expect(r.argv.some((a) => a.startsWith('password=') || a.startsWith('user='))).toBe(false);
        expect(r.file).not.toBeNull();
        expect(r.fileMode).toBe('600');
        expect(r.dirMode).toBe('700');
        expect(r.file!.startsWith(runsDir(env))).toBe(false);
        expect(r.secretInEnv).toBe(false);
        // The file is what SettingsCredentials reads: cql.username / cql.password, escaped.
        expect(Object.fromEntries(parseProperties(r.content!))).toEqual({ 'cql.username': 'stress_user', 'cql.password': PASSWORD });
        expect(r.content).toBe(credentialsFileText({ username: 'stress_user', password: PASSWORD }));
      }
      expect(recs[0]!.file).toBe(recs[1]!.file); // one file for every step of the run
      expect(existsSync(recs[0]!.file!)).toBe(false);
      expect(existsSync(join(recs[0]!.file!, '..'))).toBe(false);
      const argvJson = JSON.parse(readFileSync(join(started.dir, 'argv.json'), 'utf8')) as { credentials: string; steps: { argv: string[] }[] };
      expect(argvJson.credentials).toBe('file');
      expect(argvJson.steps.every((s) => s.argv.includes('-credentials-file') && !s.argv.some((a) => a.includes('***')))).toBe(true);
      expect(runFiles(started.dir)).not.toContain(SENTINEL);
      expect((await stressStatus(started.id, env)).warnings).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env['CQL_TUNER_CQL_PASSWORD'];
      else process.env['CQL_TUNER_CQL_PASSWORD'] = saved;
    }
  });

  it('asks the binary once per process, again only when the binary changes (mtime)', async () => {
    expect(probeCount(fake.probes)).toBe(1); // from the run above
    await waitForRun((await startStress({ ...params(19043), binary: fake.bin }, { env })).id);
    expect(probeCount(fake.probes)).toBe(1);
    const later = new Date(Date.now() + 5000);
    utimesSync(fake.bin, later, later);
    expect((await probeCredentialsFile(fake.bin)).supported).toBe(true);
    expect(probeCount(fake.probes)).toBe(2);
  });

  it('removes the file when the run fails, is cancelled, or hits the duration cap', async () => {
    const before = calls(fake.log).length;
    const failed = await startStress({ ...params(19044, 13), binary: fake.bin }, { env });
    expect((await waitForRun(failed.id)).state).toBe('failed');

    const cancelled = await startStress({ ...params(19045, 999), binary: fake.bin }, { env });
    for (let i = 0; i < 50 && calls(fake.log).length < before + 4; i++) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(calls(fake.log).at(-1)!.file!)).toBe(true); // the step is running: the file is there
    expect((await stressCancel(cancelled.id, env)).leftover).toEqual([]);
    expect((await waitForRun(cancelled.id)).state).toBe('cancelled');

    const capped = await startStress({ ...params(19046, 999), binary: fake.bin, maxDurationS: 1 }, { env });
    expect((await waitForRun(capped.id)).state).toBe('timed-out');

    const recs = calls(fake.log).slice(before);
    expect(recs.length).toBe(6); // load + run of each of the three runs
    for (const r of recs) {
      expect(r.fileMode).toBe('600');
      expect(existsSync(r.file!)).toBe(false);
    }
    for (const id of [failed.id, cancelled.id, capped.id]) expect(runFiles(join(runsDir(env), id))).not.toContain(SENTINEL);
  }, 30_000);
});

describe('run_stress with an older cassandra-stress (no -credentials-file)', () => {
  const fake = fakeStress('old', 'old');

  it('keeps the password in argv (masked in argv.json) and says so in the start, status and result', async () => {
    const started = await startStress({ ...params(19052), binary: fake.bin }, { env });
    expect(started.credentials).toBe('argv');
    expect(started.warnings).toHaveLength(1);
    const w = started.warnings[0]!;
    expect(w).toMatch(/command line/);
    expect(w).toMatch(/`ps`/);
    expect(w).toMatch(/upgrade cassandra-stress to a version with -credentials-file/);
    expect(w).toMatch(/role whose only permissions are on the stress keyspace/);
    expect(w).toMatch(/Invalid command or option provided to command help/); // what the probe saw
    const result = await waitForRun(started.id);
    expect(result.warnings[0]).toBe(w);
    expect((await stressStatus(started.id, env)).warnings[0]).toBe(w);
    expect((JSON.parse(readFileSync(join(started.dir, 'status.json'), 'utf8')) as { warnings: unknown }).warnings).toEqual([w]);
    const recs = calls(fake.log);
    expect(recs).toHaveLength(2);
    for (const r of recs) {
      expect(r.file).toBeNull();
      expect(r.argv).toContain(`password=${PASSWORD}`);
    }
    const argvJson = JSON.parse(readFileSync(join(started.dir, 'argv.json'), 'utf8')) as { credentials: string; steps: { argv: string[] }[] };
    expect(argvJson.credentials).toBe('argv');
    expect(argvJson.steps[0]!.argv).toContain('password=***');
    expect(runFiles(started.dir)).not.toContain(SENTINEL);
  });

  it('no credentials: no probe, no warning, no credentials field', async () => {
    const noCreds = { CQL_TUNER_HOME: env.CQL_TUNER_HOME, PATH: '' };
    const plain = fakeStress('plain', 'old');
    const started = await startStress({ ...params(19053), binary: plain.bin }, { env: noCreds });
    await waitForRun(started.id);
    expect(probeCount(plain.probes)).toBe(0);
    expect(started.warnings).toEqual([]);
    expect(started.credentials).toBeUndefined();
    expect((JSON.parse(readFileSync(join(started.dir, 'argv.json'), 'utf8')) as { credentials?: unknown }).credentials).toBeUndefined();
  });
});

describe('probe failures default to "not supported"', () => {
  it('a binary that never answers is killed at the timeout (with its process group)', async () => {
    const slow = fakeStress('slow', 'slow');
    const t0 = Date.now();
    const p = await probeCredentialsFile(slow.bin, { timeoutMs: 700 });
    expect(p.supported).toBe(false);
    expect(p.reason).toMatch(/did not answer within 1 s/);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(await pidAlive(Number(readFileSync(slow.pidFile, 'utf8')))).toBe(false);
  }, 20_000);

  it('garbage with exit 0, and a binary that cannot be started', async () => {
    expect((await probeCredentialsFile(fakeStress('garbage', 'garbage').bin)).supported).toBe(false);
    const broken = join(tmp, 'broken');
    mkdirSync(broken, { recursive: true });
    writeFileSync(join(broken, 'cassandra-stress'), '#!/nonexistent/interpreter\n');
    chmodSync(join(broken, 'cassandra-stress'), 0o755);
    const p = await probeCredentialsFile(join(broken, 'cassandra-stress'));
    expect(p.supported).toBe(false);
  });
});

describe('private file', () => {
  it('is 0600 in a 0700 folder of its own and remove() takes both away', async () => {
    const f = await writePrivateFile('x.properties', 'cql.password=p\n');
    expect(statSync(f.dir).mode & 0o777).toBe(0o700);
    expect(statSync(f.path).mode & 0o777).toBe(0o600);
    expect(readFileSync(f.path, 'utf8')).toBe('cql.password=p\n');
    await f.remove();
    await f.remove();
    expect(existsSync(f.dir)).toBe(false);
  });
});

describe('private folders left by a killed process', () => {
  it('are removed by the next write; live owners, other names and the new folder are kept', async () => {
    const base = tmpdir();
    // A pid that surely ended: a child that has exited and been reaped.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const stale = join(base, `cql-tuner-cred-${dead}-test${process.pid}`);
    const live = join(base, `cql-tuner-cred-${process.pid}-livetest`);
    const other = join(base, `cql-tuner-other-${dead}-test${process.pid}`);
    for (const d of [stale, live, other]) {
      mkdirSync(d, { recursive: true });
      writeFileSync(join(d, 'p.properties'), 'cql.password=x\n');
    }
    // A planted link with a dead pid in its name, pointing at a folder of ours: neither is touched.
    const target = join(tmp, 'link-target');
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, 'keep.txt'), 'x');
    const link = join(base, `cql-tuner-cred-${dead}-link${process.pid}`);
    symlinkSync(target, link);
    try {
      const f = await writePrivateFile('x.properties', 'cql.password=p\n');
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(live)).toBe(true);
      expect(existsSync(other)).toBe(true);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(existsSync(join(target, 'keep.txt'))).toBe(true);
      expect(f.dir).toMatch(new RegExp(`cql-tuner-cred-${process.pid}-`));
      expect(existsSync(f.path)).toBe(true);
      await f.remove();
      expect(await sweepStalePrivateDirs(base)).not.toContain(live);
    } finally {
      for (const d of [stale, live, other, link]) rmSync(d, { recursive: true, force: true });
    }
  });
});
