// `cql-tuner mcp` is what Claude Code starts at every session: serve without loading the CLI's verbs
// (commander, tables, every command module) first. Everything else goes through the CLI.
const fail = (e: unknown): void => {
  process.stderr.write(`cql-tuner: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
  void import('./exit.js').then((m) => m.exitWhenFlushed(1));
};

if (process.argv.length === 3 && process.argv[2] === 'mcp') {
  import('../mcp/stdio.js').then((m) => m.serveStdio()).catch(fail);
} else {
  import('./main.js').then((m) => m.main(process.argv)).catch(fail);
}
