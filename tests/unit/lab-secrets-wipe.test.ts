/**
 * The secrets of a secured lab (issue #20) on disk, without starting Cassandra: `lab stop --wipe` removes them with
 * the data, as one step (renamed aside first, so no start ever sees half a folder; leftovers of a cut-short wipe
 * go at the next wipe or start); a plain stop keeps them; passwords in use survive a secrets folder from an
 * older release. (A CA remade with real keytool: tests/integration/lab-secured-secrets.test.ts, the JVM starts are slow.)
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stopLab } from '../../mcp-server/src/lab/lab.js';
import { labPaths, nodeDirFor } from '../../mcp-server/src/lab/paths.js';
import { ensureLabSecrets, NO_SECURITY, secretsDirFor, wipeLabSecrets } from '../../mcp-server/src/lab/security.js';

const tmp = mkdtempSync(join(tmpdir(), 'cql-tuner-lab-secrets-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const AUTH = { ...NO_SECURITY, auth: true, jmxAuth: true };

describe('lab secrets and stop --wipe', () => {
  let home: string;
  let stateDir: string;
  const saved = process.env.CQL_TUNER_HOME;

  beforeEach(() => {
    home = mkdtempSync(join(tmp, 'home-'));
    process.env.CQL_TUNER_HOME = home;
    stateDir = labPaths().stateDir;
    mkdirSync(stateDir, { recursive: true });
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.CQL_TUNER_HOME;
    else process.env.CQL_TUNER_HOME = saved;
  });

  it('an auth lab writes private passwords and one cqlshrc per role (tool, bench, admin)', async () => {
    const s = await ensureLabSecrets(stateDir, '/usr/bin/java', ['127.0.5.1'], AUTH);
    expect(statSync(s.dir).mode & 0o777).toBe(0o700);
    for (const f of ['passwords.json', 'cqlshrc', 'cqlshrc.bench', 'cqlshrc.admin', 'jmxremote.password']) {
      expect(statSync(join(s.dir, f)).mode & 0o777, f).toBe(0o600);
    }
    expect(readFileSync(s.benchCqlshrc, 'utf8')).toMatch(new RegExp(`username = cql_tuner_bench\\npassword = ${s.passwords.bench}\\n`));
    expect(new Set(Object.values(s.passwords)).size).toBe(6);
  });

  it('a passwords.json from before the bench role keeps every password it has and gains only the missing one', async () => {
    const dir = secretsDirFor(stateDir);
    mkdirSync(dir, { recursive: true });
    const old = { store: 'storeOld1', admin: 'adminOld1', tool: 'toolOld1', jmx: 'jmxOld1', jmxAdmin: 'jmxAdminOld1' };
    writeFileSync(join(dir, 'passwords.json'), JSON.stringify(old), { mode: 0o600 });
    const s = await ensureLabSecrets(stateDir, '/usr/bin/java', ['127.0.5.1'], AUTH);
    expect(s.passwords).toMatchObject(old);
    expect(s.passwords.bench).toMatch(/^[A-Za-z0-9]{20,}$/);
    expect(JSON.parse(readFileSync(join(dir, 'passwords.json'), 'utf8'))).toEqual(s.passwords);
  });

  it('stop --wipe removes the data and the secrets together; the next start makes new ones at the same paths', async () => {
    const first = await ensureLabSecrets(stateDir, '/usr/bin/java', ['127.0.5.1'], AUTH);
    mkdirSync(join(nodeDirFor(stateDir, 1), 'data'), { recursive: true });
    await stopLab({ wipe: true });
    expect(existsSync(nodeDirFor(stateDir, 1))).toBe(false);
    expect(existsSync(first.dir)).toBe(false);
    expect(readdirSync(stateDir).filter((n) => n.startsWith('secrets'))).toEqual([]);
    const next = await ensureLabSecrets(stateDir, '/usr/bin/java', ['127.0.5.1'], AUTH);
    expect(next.toolCqlshrc).toBe(first.toolCqlshrc);
    expect(next.passwords.tool).not.toBe(first.passwords.tool);
  });

  it('a plain stop keeps the secrets (the roles in the kept data still use those passwords)', async () => {
    const s = await ensureLabSecrets(stateDir, '/usr/bin/java', ['127.0.5.1'], AUTH);
    await stopLab({});
    expect(JSON.parse(readFileSync(join(s.dir, 'passwords.json'), 'utf8'))).toEqual(s.passwords);
  });

  it('a wipe cut short (folder renamed aside, not yet removed) is finished by the next wipe or start, never reused', async () => {
    await ensureLabSecrets(stateDir, '/usr/bin/java', ['127.0.5.1'], AUTH);
    const aside = join(stateDir, 'secrets.wiping-deadbeef');
    mkdirSync(aside);
    writeFileSync(join(aside, 'passwords.json'), '{"admin":"stale"}');
    expect(await wipeLabSecrets(stateDir)).toBe(true);
    expect(readdirSync(stateDir).filter((n) => n.startsWith('secrets'))).toEqual([]);
    mkdirSync(aside);
    const s = await ensureLabSecrets(stateDir, '/usr/bin/java', ['127.0.5.1'], AUTH);
    expect(existsSync(aside)).toBe(false);
    expect(s.passwords.admin).not.toBe('stale');
    expect(await wipeLabSecrets(join(tmp, 'no-such-lab'))).toBe(false);
  });
});
