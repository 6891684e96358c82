/** /proc/loadavg ("0.52 0.58 0.59 3/811 12345") and /proc/uptime ("15605.58 16900.81"). PURE. */
import { parsedOk, total, unrecognized, type Parsed } from '../../parsed.js';

export interface LoadAvg {
  one: number;
  five: number;
  fifteen: number;
  runnable: number;
  threads: number;
}

export const parseLoadavg = total('proc-loadavg', (text: string): Parsed<LoadAvg> => {
  const m = /^\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\/(\d+)/.exec(text);
  if (!m) return unrecognized('proc-loadavg', 'not "1m 5m 15m runnable/threads …"');
  return parsedOk('proc-loadavg', { one: Number(m[1]), five: Number(m[2]), fifteen: Number(m[3]), runnable: Number(m[4]), threads: Number(m[5]) });
});

/** Seconds since boot, to 1/100 s: the clock of the host itself, so a window's length does not include ssh latency. */
export const parseUptime = total('proc-uptime', (text: string): Parsed<number> => {
  const m = /^\s*(\d+\.\d+)\s+\d+\.\d+\s*$/.exec(text);
  if (!m) return unrecognized('proc-uptime', 'not "seconds idle-seconds"');
  return parsedOk('proc-uptime', Number(m[1]));
});
