/**
 * Entry of the parse worker thread (see off-thread.ts): runs one named job from parse-jobs.ts on workerData and
 * posts the result. Built as its own file next to the bundle (scripts/build-options.mjs).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PARSE_JOBS, runParseJob, type ParseJobName } from './parse-jobs.js';

const { job, arg } = workerData as { job: string; arg: never };
if (!parentPort) throw new Error('parse-worker runs only as a worker thread');
if (!Object.hasOwn(PARSE_JOBS, job)) {
  parentPort.postMessage({ ok: false, message: `unknown parse job ${JSON.stringify(job)}` });
} else {
  try {
    parentPort.postMessage({ ok: true, value: runParseJob(job as ParseJobName, arg) });
  } catch (e) {
    parentPort.postMessage({ ok: false, message: e instanceof Error ? e.message : String(e) });
  }
}
