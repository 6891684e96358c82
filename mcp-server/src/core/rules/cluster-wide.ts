import { clientsRule } from './clients.js';
import { ownershipRule } from './ownership.js';
import { repairRule } from './repair.js';
import type { Rule } from './rule.js';

/** Rules that read cluster-wide views: clients across coordinators, repair history and hints, the token ring. */
export const CLUSTER_WIDE_RULES: readonly Rule[] = [clientsRule, repairRule, ownershipRule];
