// Entry of the small bundle that serves `cql-tuner review-schema …` alone (scripts/build-options.mjs, picked by the launcher).
import { reviewSchemaCommand } from '../commands/schema.js';
import { failVerb } from '../fail.js';
import { rootCommand, runProgram } from '../run-program.js';

runProgram(rootCommand().addCommand(reviewSchemaCommand()), process.argv).catch(failVerb);
