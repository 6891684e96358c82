import type { KindSpec } from '../detect.js';
import { cqlshTableSignature, parseCqlshTables } from './cqlsh-table.js';

/** The detect() entry for cqlsh result tables (kept here so detect.ts only spreads it into KINDS). */
export const CQLSH_KINDS: KindSpec[] = [{ kind: 'cql.table', signature: cqlshTableSignature, parse: parseCqlshTables }];
