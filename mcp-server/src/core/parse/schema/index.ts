export { CQL_SCHEMA_KIND, cqlSchemaSignature, parseCqlSchema } from './describe.js';
export type {
  ColumnKind,
  CqlSchema,
  CqlValue,
  SchemaColumn,
  SchemaIndex,
  SchemaKeyspace,
  SchemaOptions,
  SchemaTable,
  SchemaType,
  SchemaView,
} from './types.js';
