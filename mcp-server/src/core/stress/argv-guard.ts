/**
 * No argument value may become an option of a stress tool. cassandra-stress joins its argv with spaces and
 * splits it again, so a value with whitespace turns into extra options (a profile path "x -graph file=/y" writes
 * /y); a value starting with "-" reads as an option to every tool. PURE: values in, problems or throws out.
 */
import type { StressToolName } from './params.js';

/** Characters cassandra-stress splits on or reads as option syntax (key=value, name(...), a,b lists). */
const CASSANDRA_STRESS_SYNTAX = /[\s,=()]/;
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * What is wrong with a path value (a user profile or latte script) for this tool, or null. The file checks
 * (exists, regular, not a symlink) are I/O and live in ops/stress.ts.
 */
export function stressPathProblem(tool: StressToolName, path: string): string | null {
  if (path === '') return 'is empty';
  if (CONTROL.test(path)) return 'has a control character';
  if (path.startsWith('-')) return 'starts with "-", so the tool would read it as an option';
  if (tool === 'cassandra-stress' && CASSANDRA_STRESS_SYNTAX.test(path)) {
    return 'has whitespace or one of , = ( ) — cassandra-stress splits its arguments on these, so the rest would become extra options';
  }
  return null;
}

/**
 * Last check on a built argv, whatever the parameters were: every element after the binary is one of the
 * tool's own options (which the builder put there) or a value that does not start with "-"; for
 * cassandra-stress no element holds whitespace or a control character. Secrets are exempt: they come from the
 * user's own environment (trusted, never from tool arguments), and Go's flag package takes the argument after
 * -password as its value whatever it starts with.
 */
export function guardArgv(
  tool: StressToolName,
  argv: readonly string[],
  options: ReadonlySet<string>,
  secrets: readonly string[],
  flags: ReadonlySet<string> = new Set(),
): void {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (secrets.includes(a)) continue;
    // A flag (latte's --ssl) takes no value: allowed anywhere an option may start, never as an option's value.
    if (flags.has(a) && !options.has(argv[i - 1]!)) continue;
    const shown = JSON.stringify(a.slice(0, 200));
    if (tool === 'cassandra-stress' && /\s/.test(a)) {
      throw new Error(`${shown} has whitespace, which cassandra-stress splits into separate options; remove the spaces from that value`);
    }
    if (CONTROL.test(a)) throw new Error(`${shown} has a control character; remove it`);
    if (!a.startsWith('-')) continue;
    // Every option the builders emit takes a value: an option right after one is a value posing as an option.
    const prev = argv[i - 1]!;
    if (!options.has(a) || (i > 1 && options.has(prev))) throw new Error(`${shown} would start a new ${tool} option; a value may not start with "-"`);
    if (i + 1 >= argv.length) throw new Error(`${shown} has no value after it`);
  }
}
