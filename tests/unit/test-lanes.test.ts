import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync('README.md', 'utf8');
const ci = readFileSync('.ci/run', 'utf8');
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };

describe('test lanes', () => {
  it('.ci/run calls the command README gives for running every test, in strict-skip mode', () => {
    const readmeCmd = /```sh\nnpm ci --include=dev && (npm run [\w:]+)\n```/.exec(readme)?.[1];
    expect(readmeCmd).toBe('npm run test:all');
    expect(ci).toMatch(/export CQL_TUNER_STRICT_LANES=1\n/);
    expect(ci.trimEnd().split('\n').at(-1)).toBe('npm run test:all');
  });

  it('test:all runs the four lanes README names, and each named command exists', () => {
    expect(pkg.scripts['test:all']).toBe('npm test && npm run test:lab && npm run test:metrics && npm run scenarios');
    for (const cmd of ['npm test', 'npm run test:lab', 'npm run test:metrics', 'npm run scenarios']) {
      expect(readme).toContain(`\`${cmd}\``);
      const script = cmd === 'npm test' ? 'test' : cmd.replace('npm run ', '');
      expect(pkg.scripts[script], script).toBeTruthy();
    }
  });
});
