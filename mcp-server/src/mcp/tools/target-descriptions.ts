// The description lives beside the input schemas that use it (ops/input-schemas.ts); kept here for the tools that import it.
export { NODETOOL_VIA_DESCRIPTION } from '../../ops/input-schemas.js';
