import { describe, expect, it } from 'vitest';
import { mavenFailureFix } from '../../mcp-server/src/lab/resolve.js';

// Messages as Maven 3.8.7 printed them on this machine (JAVA_HOME=/nonexistent; a mirror at an .invalid host
// with an empty local repository).
const BAD_JAVA_HOME = 'The JAVA_HOME environment variable is not defined correctly,\nthis environment variable is needed to run this program.';
const NO_NETWORK =
  "[ERROR] No plugin found for prefix 'dependency' in the current project and in the plugin groups [org.apache.maven.plugins, org.codehaus.mojo] available from the repositories [local (/tmp/mvnfail/repo), bogus (https://no-such-host.invalid/maven2)] -> [Help 1]";

describe('mavenFailureFix', () => {
  it('sends a broken JAVA_HOME to JAVA_HOME, not to the network', () => {
    expect(mavenFailureFix(BAD_JAVA_HOME, false)).toMatch(/^Maven rejected JAVA_HOME/);
  });
  it('reads a missing dependency plugin as an unreachable repository', () => {
    expect(mavenFailureFix(NO_NETWORK, false)).toMatch(/repo\.maven\.apache\.org is reachable/);
  });
  it('treats a timeout as the network, and unknown output as "read the error"', () => {
    expect(mavenFailureFix('', true)).toMatch(/reachable/);
    expect(mavenFailureFix('[ERROR] something else entirely', false)).toMatch(/^Read the Maven error above/);
  });
  it('names a full disk and a broken settings.xml', () => {
    expect(mavenFailureFix('[ERROR] ... No space left on device', false)).toMatch(/Free disk space/);
    expect(mavenFailureFix('[ERROR] Error reading settings.xml: Non-parseable settings /root/.m2/settings.xml', false)).toMatch(/settings\.xml/);
  });
});
