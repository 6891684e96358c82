import { describe, expect, it } from 'vitest';
import { LabError } from '../../mcp-server/src/lab/errors.js';
import { SUPPORTED_LAB_VERSIONS, isLabVersion, labVersionsNewestFirst, normalizeLabVersion } from '../../mcp-server/src/lab/versions.js';
import { compareVersionText as compareVersions } from '../../mcp-server/src/core/knowledge/index.js';

describe('lab versions', () => {
  it('maps short versions to the exact Maven releases', () => {
    expect(SUPPORTED_LAB_VERSIONS).toEqual({ '5.0': '5.0.9', '4.1': '4.1.10' });
  });

  it('accepts the short and the full form', () => {
    expect(normalizeLabVersion('5.0')).toBe('5.0');
    expect(normalizeLabVersion('5.0.9')).toBe('5.0');
    expect(normalizeLabVersion(' 4.1 ')).toBe('4.1');
    expect(normalizeLabVersion('4.1.10')).toBe('4.1');
  });

  it('refuses anything else with the supported list', () => {
    for (const bad of ['3.0', '5', '5.0.8', '4.0', '', 'latest']) {
      let err: unknown;
      try {
        normalizeLabVersion(bad);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(LabError);
      const le = err as LabError;
      expect(le.code).toBe('UNSUPPORTED_VERSION');
      expect(le.message).toContain('5.0 (5.0.9)');
      expect(le.message).toContain('4.1 (4.1.10)');
      expect(le.fix).toMatch(/5\.0, 4\.1/);
    }
  });

  it('orders versions numerically, newest first', () => {
    expect(compareVersions('4.1.10', '4.1.9')).toBeGreaterThan(0);
    expect(compareVersions('5.0.9', '5.0.9')).toBe(0);
    expect(compareVersions('4.1', '5.0.1')).toBeLessThan(0);
    expect(labVersionsNewestFirst()).toEqual(['5.0', '4.1']);
  });

  it('recognises lab versions', () => {
    expect(isLabVersion('5.0')).toBe(true);
    expect(isLabVersion('5.0.9')).toBe(false);
    expect(isLabVersion(5)).toBe(false);
  });
});
