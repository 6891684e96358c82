import { describe, expect, it } from 'vitest';
import { javaVersionLine, parseJavaMajor } from '../../mcp-server/src/lab/java-version.js';

describe('java -version parsing', () => {
  it('reads OpenJDK 17 (as printed on this machine)', () => {
    const out = [
      'openjdk version "17.0.15" 2025-04-15',
      'OpenJDK Runtime Environment (build 17.0.15+6-Debian-1deb12u1)',
      'OpenJDK 64-Bit Server VM (build 17.0.15+6-Debian-1deb12u1, mixed mode, sharing)',
    ].join('\n');
    expect(parseJavaMajor(out)).toBe(17);
    expect(javaVersionLine(out)).toBe('openjdk version "17.0.15" 2025-04-15');
  });

  it('reads the 1.x scheme of Java 8', () => {
    expect(parseJavaMajor('java version "1.8.0_381"\nJava(TM) SE Runtime Environment (build 1.8.0_381-b09)')).toBe(8);
  });

  it('reads versions without minor parts and early-access builds', () => {
    expect(parseJavaMajor('openjdk version "21" 2023-09-19')).toBe(21);
    expect(parseJavaMajor('openjdk version "22-ea" 2024-03-19')).toBe(22);
    expect(parseJavaMajor('openjdk version "11.0.2" 2019-01-15')).toBe(11);
  });

  it('skips JAVA_TOOL_OPTIONS noise before the version line', () => {
    expect(parseJavaMajor('Picked up JAVA_TOOL_OPTIONS: -Xmx1g\nopenjdk version "17.0.9" 2023-10-17')).toBe(17);
  });

  it('returns null when there is no version', () => {
    expect(parseJavaMajor('')).toBeNull();
    expect(parseJavaMajor('bash: java: command not found')).toBeNull();
  });
});
