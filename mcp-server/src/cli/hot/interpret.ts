// Entry of the small bundle that serves `cql-tuner interpret …` alone (scripts/build-options.mjs, picked by the launcher).
import { interpretCommand } from '../commands/interpret.js';
import { failVerb } from '../fail.js';
import { rootCommand, runProgram } from '../run-program.js';

runProgram(rootCommand().addCommand(interpretCommand()), process.argv).catch(failVerb);
