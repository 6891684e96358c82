import { compareVersionText } from '../core/knowledge/index.js';
import { LabError } from './errors.js';

export type LabVersion = '5.0' | '4.1';

/** Short version → the exact cassandra-all release on Maven Central the lab runs. */
export const SUPPORTED_LAB_VERSIONS: Record<LabVersion, string> = {
  '5.0': '5.0.9',
  '4.1': '4.1.10',
};

const LAB_VERSIONS = Object.keys(SUPPORTED_LAB_VERSIONS) as LabVersion[];

export function supportedVersionsText(): string {
  return LAB_VERSIONS.map((v) => `${v} (${SUPPORTED_LAB_VERSIONS[v]})`).join(', ');
}

/**
 * Accepts the short form ('5.0') or the exact full version ('5.0.9'); anything else is refused with the list,
 * because a silently substituted release would make measurements lie.
 */
export function normalizeLabVersion(input: string): LabVersion {
  const v = String(input).trim();
  for (const short of LAB_VERSIONS) {
    if (v === short || v === SUPPORTED_LAB_VERSIONS[short]) return short;
  }
  throw new LabError(
    'UNSUPPORTED_VERSION',
    `Cassandra version '${v}' is not supported by the lab; supported: ${supportedVersionsText()}.`,
    `Use one of: ${LAB_VERSIONS.join(', ')} (e.g. \`cql-tuner lab start --version 5.0\`).`,
  );
}

export function isLabVersion(v: unknown): v is LabVersion {
  return typeof v === 'string' && (LAB_VERSIONS as string[]).includes(v);
}

/** Newest first, for "any resolved version" fallbacks. */
export function labVersionsNewestFirst(): LabVersion[] {
  return [...LAB_VERSIONS].sort((a, b) => compareVersionText(SUPPORTED_LAB_VERSIONS[b], SUPPORTED_LAB_VERSIONS[a]) ?? 0);
}
