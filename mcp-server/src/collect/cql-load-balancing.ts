import type cassandra from 'cassandra-driver';
import { loadDriver, type CassandraDriver } from './cql-driver.js';

type Base = cassandra.policies.loadBalancing.LoadBalancingPolicy;
type Host = cassandra.Host;
type HostMap = Parameters<Base['init']>[1];
type PlanCallback = Parameters<Base['newQueryPlan']>[2];
// The typings say the plan callback's error is an Error; the driver itself passes null when there is none.
const NO_ERROR = null as unknown as Error;

/**
 * A sweep reads node-local tables on every node, so it pins each query to one host. The driver's
 * DCAwareRoundRobinPolicy gives hosts outside the local DC the distance "ignored": no pool, and a query
 * pinned to them is never sent. This policy keeps every host at distance "local" (one connection each, as
 * the session's pooling says) so that the driver's warm-up opens every pool at connect: a "remote" host's
 * pool is only opened by its first request, which then fails with "No connection available" (seen on the
 * two-DC lab). Only the order of unpinned queries prefers the local DC.
 */
function definePolicy(driver: CassandraDriver) {
  return class LocalDcFirstPolicy extends driver.policies.loadBalancing.LoadBalancingPolicy {
    private known: HostMap | null = null;
    private index = 0;

    constructor(private readonly localDc: string) {
      super();
    }

    override init(_client: cassandra.Client, hosts: HostMap, callback: Parameters<Base['init']>[2]): void {
      this.known = hosts;
      callback(NO_ERROR);
    }

    override getDistance(_host: Host): cassandra.types.distance {
      return driver.types.distance.local;
    }

    override newQueryPlan(_keyspace: string, _options: Parameters<Base['newQueryPlan']>[1], callback: PlanCallback): void {
      if (!this.known) {
        callback(new Error('load balancing policy not initialised'), [][Symbol.iterator]());
        return;
      }
      const all = this.known.values();
      const start = this.index++ % Math.max(1, all.length);
      const rotated = [...all.slice(start), ...all.slice(0, start)];
      const plan = [...rotated.filter((h) => h.datacenter === this.localDc), ...rotated.filter((h) => h.datacenter !== this.localDc)];
      callback(NO_ERROR, plan[Symbol.iterator]());
    }

    override getOptions(): Map<string, object> {
      return new Map([['localDataCenter', { value: this.localDc }]]);
    }
  };
}

let policyClass: ReturnType<typeof definePolicy> | null = null;

/** A LocalDcFirstPolicy for localDc (the class is defined once the driver is loaded). */
export async function localDcFirstPolicy(localDc: string): Promise<Base> {
  policyClass ??= definePolicy(await loadDriver());
  return new policyClass(localDc);
}
