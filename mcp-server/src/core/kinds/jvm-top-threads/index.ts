/** `top -H` of the JVM: per-thread CPU by thread family (compaction, GC, JIT, requests, event loops, streaming). */
import { defineKind } from '../types.js';
import { parseTopThreads, TOP_THREADS_KIND, topThreadsSignature } from './parse.js';
import { TOP_THREADS_RULES } from './rules.js';

export const jvmTopThreads = defineKind({
  kind: TOP_THREADS_KIND,
  title: 'top -H of the JVM (per-thread CPU)',
  signature: topThreadsSignature,
  parse: parseTopThreads,
  // its task-table header is unlike any other kind's, and a syslog-wrapped top is still top
  order: 'before-logs',
  rules: TOP_THREADS_RULES,
  knowledgeIds: ['jvm.threads.group-share', 'jvm.threads.hot-thread'],
  fixtures: 'top-threads',
});
