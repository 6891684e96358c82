/**
 * One error type (issue #18): every error cql-tuner throws on purpose is an OpError with a code, a message and a
 * fix, and whether it is a refusal (exit 2) or a failure (exit 1) is decided in one place (core/errors.ts), not
 * by each adapter.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { K8sDiscoveryError } from '../../mcp-server/src/collect/k8s-discovery.js';
import { MgmtApiConfigError } from '../../mcp-server/src/collect/mgmt-api.js';
import { describeError, isRefusalCode, OpError } from '../../mcp-server/src/core/errors.js';
import { MkfsPlanError } from '../../mcp-server/src/core/planners/mkfs.js';
import { QueueDepthError } from '../../mcp-server/src/core/planners/queue-depth.js';
import { RemoteTargetError } from '../../mcp-server/src/core/remote-argv.js';
import { LabError } from '../../mcp-server/src/lab/errors.js';

/** Classes that extend Error but never reach a user: a control-flow signal and a parse failure turned into OpError. */
const NOT_ERRORS = new Set(['OpError', 'UsageExit', 'SpecError']);
const SRC = resolve(import.meta.dirname, '../../mcp-server/src');

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

describe('one error type', () => {
  it('every error class is an OpError with code, message and fix', () => {
    const errors = [
      new LabError('BAD_HEAP', 'heap 3 is not a size', 'Give 512M or 1G.'),
      new K8sDiscoveryError('NO_PODS', 'no pods matched', 'Check the namespace.'),
      new MgmtApiConfigError('port 0 is not a port', 'Give 1–65535.'),
      new MkfsPlanError('no device', 'Name the device.'),
      new QueueDepthError('iops must be positive', 'Give the measured IOPS.'),
      new RemoteTargetError('BAD_TARGET', 'host -x is not a host'),
    ];
    for (const e of errors) {
      expect(e, e.name).toBeInstanceOf(OpError);
      expect(e.code.length, e.name).toBeGreaterThan(0);
      expect(e.fix.length, `${e.name} has a fix`).toBeGreaterThan(5);
      expect(describeError(e)).toMatchObject({ code: e.code, message: e.message, fix: e.fix });
    }
  });

  it('refusal is decided once: bad input and unconfirmed changes exit 2, failures of what ran exit 1', () => {
    for (const c of ['BAD_ARGUMENT', 'BAD_MKFS_INPUT', 'BAD_TOPOLOGY', 'CONFIRMATION_REQUIRED', 'NOT_A_BUNDLE', 'NO_INPUT', 'STRESS_BAD_PARAMS'])
      expect(isRefusalCode(c), c).toBe(true);
    for (const c of ['TIMEOUT', 'DISK_FULL', 'NODE_DIED', 'KUBECTL_FAILED', 'INTERNAL', 'MGMT_API_TIMEOUT']) expect(isRefusalCode(c), c).toBe(false);
    expect(new OpError('BAD_ARGUMENT', 'm', 'f').refused).toBe(true);
    expect(new OpError('TIMEOUT', 'm', 'f').refused).toBe(false);
    // kubectl's own answer is not the user's input, whatever its code looks like
    expect(new K8sDiscoveryError('BAD_POD_LIST', 'm', 'f').refused).toBe(false);
    // a Node error keeps its code; an unknown throw reads as a bug to report
    expect(describeError(Object.assign(new Error('gone'), { code: 'ENOENT' }))).toMatchObject({ code: 'ENOENT', refused: false });
    expect(describeError('x')).toMatchObject({ code: 'INTERNAL', refused: false });
  });

  it('no source builds an ad-hoc coded error (Object.assign(new Error…)) or an Error subclass outside OpError', () => {
    const adHoc: string[] = [];
    for (const f of sources(SRC)) {
      const text = readFileSync(f, 'utf8');
      if (/Object\.assign\(\s*new Error\(/.test(text)) adHoc.push(`${f}: Object.assign(new Error…)`);
      for (const m of text.matchAll(/class (\w+) extends Error\b/g)) if (!NOT_ERRORS.has(m[1]!)) adHoc.push(`${f}: class ${m[1]} extends Error`);
    }
    expect(adHoc).toEqual([]);
  });
});
