/** jstat's GC counters of a JVM (-gc, -gcutil, -gccause, -gccapacity): full collections, time in GC, young pauses. */
import { defineKind } from '../types.js';
import { JSTAT_KIND, jstatSignature, parseJstat } from './parse.js';
import { JSTAT_RULES } from './rules.js';

export const jvmJstat = defineKind({
  kind: JSTAT_KIND,
  title: 'jstat -gc / -gcutil / -gccause of the JVM (GC counters)',
  signature: jstatSignature,
  parse: parseJstat,
  // its header row is unlike any other kind's
  order: 'before-logs',
  rules: JSTAT_RULES,
  knowledgeIds: ['jvm.gc.full-collections', 'jvm.gc.time-share', 'jvm.gc.pause', 'jvm.heap.used-ratio'],
  fixtures: 'jstat',
  summary: (v) =>
    `jstat -${v.option}: ${v.samples.length} sample(s) of ${v.columns.length} columns` +
    (v.intervalMs !== null ? `, every ${v.intervalMs} ms` : '') +
    (v.concurrentColumns ? ' (JDK 9+ columns)' : v.permGen ? ' (JDK 7 columns)' : ''),
});
