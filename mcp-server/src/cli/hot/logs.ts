// Entry of the small bundle that serves `cql-tuner logs …` alone (scripts/build-options.mjs, picked by the launcher).
import { logsCommand } from '../commands/logs.js';
import { failVerb } from '../fail.js';
import { rootCommand, runProgram } from '../run-program.js';

runProgram(rootCommand().addCommand(logsCommand()), process.argv).catch(failVerb);
