import { main } from './main.js';

main(process.argv).catch((e: unknown) => {
  process.stderr.write(`cql-tuner: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
