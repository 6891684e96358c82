/** Kept equal to package.json's version by a unit test (the bundle cannot read package.json at run time). */
export const CQL_TUNER_VERSION = '0.1.0';
