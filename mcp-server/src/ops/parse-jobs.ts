/**
 * The parses that may run off the event loop (ops/off-thread.ts), by name: the worker receives a name and an
 * argument, never code. Each is pure CPU work on untrusted text; arguments and results are plain data
 * (structured-cloned between threads).
 */
import { parsePostgresDdl } from '../core/parse/postgres-ddl.js';
import { parseCqlSchema } from '../core/parse/schema/index.js';
import { yamlScalars } from '../core/config/yaml-scalars.js';
import { auditConfigTexts, type ConfigText } from './audit-config.js';
import { interpretText } from './interpret.js';

type AuditSpec = Parameters<typeof auditConfigTexts>[1];
type AuditSnapshot = Parameters<typeof auditConfigTexts>[2];

export const PARSE_JOBS = {
  interpret: (text: string) => interpretText(text),
  cqlSchema: (text: string) => parseCqlSchema(text),
  postgresDdl: (text: string) => parsePostgresDdl(text),
  yamlScalars: (text: string) => yamlScalars(text),
  auditConfigTexts: (a: { texts: ConfigText[]; spec: AuditSpec; snapshot?: AuditSnapshot }) => auditConfigTexts(a.texts, a.spec, a.snapshot),
} as const;

export type ParseJobs = typeof PARSE_JOBS;
export type ParseJobName = keyof ParseJobs;
export type ParseJobArg<K extends ParseJobName> = Parameters<ParseJobs[K]>[0];
export type ParseJobResult<K extends ParseJobName> = ReturnType<ParseJobs[K]>;

export function runParseJob<K extends ParseJobName>(job: K, arg: ParseJobArg<K>): ParseJobResult<K> {
  return (PARSE_JOBS[job] as (a: ParseJobArg<K>) => ParseJobResult<K>)(arg);
}
