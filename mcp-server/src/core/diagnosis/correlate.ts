/** Rule findings → what a report shows: one finding per problem, labelled in time, causes leading their symptoms. PURE. */
import type { Finding } from '../findings.js';
import { chainFindings, orderFindings } from './chain.js';
import { mergeFindings } from './merge.js';
import { labelTime, type TimeContext } from './since-start.js';

export function correlate(findings: Finding[], ctx: TimeContext): Finding[] {
  return orderFindings(chainFindings(labelTime(mergeFindings(findings), ctx), ctx.logTimelines));
}
