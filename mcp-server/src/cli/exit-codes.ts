/**
 * What each verb's exit status means, printed under its --help. Scripts and CI gates act on these, so they are
 * written down once, here, next to nothing else.
 */
const WHEN_ONE: Record<string, string> = {
  diagnose: 'a critical finding, or the bundle could not be written',
  interpret: 'a critical finding (exit 2: the output was not recognised)',
  logs: 'a critical finding in the logs',
  metrics: 'a critical finding in the window (a node stopped answering, messages dropped, requests shed)',
  storage: 'a critical storage finding',
  'audit-os': 'a critical OS finding',
  'audit-config': 'a critical configuration finding',
  'review-schema': 'a critical schema finding',
  'migration-review': 'the verdict is "blocked"',
  snapshot: 'a node was unreachable, or the bundle could not be written',
  analyze: 'a file of the bundle could not be read',
  'lab start': 'the lab did not start (its last log lines are printed)',
  'lab stop': 'a node did not stop',
  nodetool: 'the output could not be parsed',
  demo: 'a step of the demo failed',
  'stress status': 'the run is not finished (running, failed or cancelled)',
  'stress cancel': 'processes of the run were left behind',
};

/** The "Exit codes" help section for the verb at `path` (e.g. "stress status"). */
export function exitCodesHelp(path: string): string {
  const one = WHEN_ONE[path] ?? 'the operation ran and failed (a node unreachable, a command that failed)';
  return [
    '',
    'Exit codes:',
    '  0    done; nothing critical found',
    `  1    ${one}`,
    '  2    refused: a usage error or bad input (nothing was run); the message names the fix',
    '  130  cancelled (Ctrl-C twice)',
    '  141  the reader of standard output went away (e.g. `| head`)',
  ].join('\n');
}
