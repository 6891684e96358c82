import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { CQL_TUNER_VERSION } from '../../mcp-server/src/version.js';

it('the server reports the version in package.json and plugin.json', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  const plugin = JSON.parse(readFileSync(new URL('../../.claude-plugin/plugin.json', import.meta.url), 'utf8')) as { version?: string };
  expect(CQL_TUNER_VERSION).toBe(pkg.version);
  expect(plugin.version).toBe(pkg.version);
});
