import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LabError } from '../../mcp-server/src/lab/errors.js';
import { checkJava, findJava, findMaven, findOnPath } from '../../mcp-server/src/lab/preflight.js';

// Fake `java` executables (small sh scripts run directly, never through a shell string from the code under test).
let dir: string;
const saved = { JAVA_HOME: process.env.JAVA_HOME, PATH: process.env.PATH };

async function fakeJdk(name: string, versionLine: string): Promise<string> {
  const home = join(dir, name);
  await mkdir(join(home, 'bin'), { recursive: true });
  const java = join(home, 'bin', 'java');
  await writeFile(java, `#!/bin/sh\necho '${versionLine}' >&2\n`);
  await chmod(java, 0o755);
  return home;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lab-preflight-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe.runIf(process.platform !== 'win32')('lab preflight', () => {
  it('prefers $JAVA_HOME/bin/java', async () => {
    const home = await fakeJdk('jdk17', 'openjdk version "17.0.15" 2025-04-15');
    expect(await findJava({ JAVA_HOME: home, PATH: '' })).toBe(join(home, 'bin', 'java'));
  });

  it('accepts Java 17 and reports its version line', async () => {
    process.env.JAVA_HOME = await fakeJdk('jdk17b', 'openjdk version "17.0.15" 2025-04-15');
    const j = await checkJava();
    expect(j.major).toBe(17);
    expect(j.versionLine).toBe('openjdk version "17.0.15" 2025-04-15');
  });

  it('refuses Java 8/11 with JAVA_TOO_OLD', async () => {
    process.env.JAVA_HOME = await fakeJdk('jdk8', 'java version "1.8.0_381"');
    const e = await checkJava().then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(LabError);
    expect((e as LabError).code).toBe('JAVA_TOO_OLD');
    expect((e as LabError).message).toContain('Java 8');
    expect((e as LabError).fix).toContain('17');
  });

  it('says NO_JAVA when there is none', async () => {
    process.env.JAVA_HOME = join(dir, 'missing');
    process.env.PATH = join(dir, 'empty-bin');
    const e = await checkJava().then(
      () => null,
      (x: unknown) => x,
    );
    expect((e as LabError).code).toBe('NO_JAVA');
  });

  it('names a JAVA_HOME without bin/java even when java is on PATH (Maven would trip on it later)', async () => {
    const good = await fakeJdk('jdk-on-path', 'openjdk version "17.0.15" 2025-04-15');
    const e = await checkJava(undefined, { JAVA_HOME: join(dir, 'not-a-jdk'), PATH: join(good, 'bin') }).then(
      () => null,
      (x: unknown) => x,
    );
    expect((e as LabError).code).toBe('NO_JAVA');
    expect((e as LabError).message).toContain(`JAVA_HOME=${join(dir, 'not-a-jdk')}`);
    expect((e as LabError).fix).toMatch(/unset it/);
    // Without JAVA_HOME the same PATH java is accepted.
    expect((await checkJava(undefined, { PATH: join(good, 'bin') })).major).toBe(17);
  });

  it('says NO_MAVEN when mvn is missing', async () => {
    const e = await findMaven({ PATH: join(dir, 'empty-bin') }).then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(LabError);
    expect((e as LabError).code).toBe('NO_MAVEN');
    expect((e as LabError).fix).toMatch(/maven/i);
  });

  it('looks executables up on PATH without a shell', async () => {
    const home = await fakeJdk('jdk-path', 'openjdk version "21" 2023-09-19');
    expect(await findOnPath('java', { PATH: `${join(dir, 'nope')}:${join(home, 'bin')}` })).toBe(join(home, 'bin', 'java'));
    expect(await findOnPath('java', { PATH: '' })).toBeNull();
  });
});
