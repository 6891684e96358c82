import type { KnowledgeId } from '../knowledge/index.js';

/**
 * Which knowledge entry grades a pool's pending count: pools whose queue follows the load (client requests in
 * flight, write bursts) have their own, higher limits; every other stage uses the generic one.
 */
export function pendingKnowledgeIds(pool: string): readonly [KnowledgeId, ...KnowledgeId[]] {
  if (pool === 'Native-Transport-Requests') return ['threadpool.pending-native-transport', 'threadpool.pending'];
  if (pool === 'MutationStage' || pool === 'TPC/all/WRITE_LOCAL' || pool === 'TPC/all/WRITE_REMOTE')
    return ['threadpool.pending-mutation', 'threadpool.pending'];
  return ['threadpool.pending'];
}
