/**
 * Ctrl-C (or SIGTERM) aborts the running operation through its AbortSignal, so a half-started lab is
 * stopped and a running nodetool is killed, instead of leaving processes behind. A second Ctrl-C exits at once.
 */
export function abortOnSignal(): { signal: AbortSignal; dispose(): void } {
  const ac = new AbortController();
  const onSignal = () => {
    if (ac.signal.aborted) process.exit(130);
    process.stderr.write('\ncancelling… (Ctrl-C again to exit now)\n');
    ac.abort(new Error('cancelled by signal'));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: ac.signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
