// `cql-tuner mcp` is what Claude Code starts at every session: serve without loading the CLI's verbs
// (commander, tables, every command module) first. `cql-tuner <verb> …` loads that verb alone (verbs.ts), and
// `--version` the root command alone; everything else (help, an unknown verb) goes through the whole CLI.
import { failVerb as fail } from './fail.js';
import { oneVerbProgram, verbLoader } from './verbs.js';

const verb = verbLoader(process.argv);
const only = process.argv.length === 3 ? process.argv[2] : undefined;
if (only === 'mcp') {
  import('../mcp/stdio.js').then((m) => m.serveStdio()).catch(fail);
} else if (verb) {
  Promise.all([oneVerbProgram(verb), import('./run-program.js')])
    .then(([program, m]) => m.runProgram(program, process.argv))
    .catch(fail);
} else if (only === '--version' || only === '-V') {
  // The root command alone answers it, as the whole program would.
  import('./run-program.js').then((m) => m.runProgram(m.rootCommand(), process.argv)).catch(fail);
} else {
  import('./main.js').then((m) => m.main(process.argv)).catch(fail);
}
