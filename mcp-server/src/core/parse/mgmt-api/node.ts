/**
 * One node's Management API answers → the NodeFacts and parsed "nodetool" evidence the rules already read
 * (status from the gossip endpoints, describecluster from the schema versions, compactionstats from the running
 * compactions). Pure and total: an answer that does not parse is listed in `unparsed`, never thrown.
 */
import type { NodeFacts } from '../../facts/node-facts.js';
import { describeClusterFrom, parseMgmtSchemaVersions } from './schema-versions.js';
import { parseMgmtCompactions } from './compactions.js';
import { parseMgmtEndpoints, statusFromEndpoints, type MgmtEndpoint, type MgmtEndpoints } from './endpoints.js';
import type { MgmtApiGet } from './paths.js';

export interface MgmtNodeFacts {
  facts: NodeFacts;
  nodetool: Record<string, unknown>;
  unparsed: { name: string; reason: string }[];
  /** The observer itself, as its own gossip names it (IS_LOCAL, else the endpoint with the node's address). */
  self: MgmtEndpoint | null;
}

const VERSION = /^\d+\.\d+(?:\.\d+)?(?:[-.][A-Za-z0-9.]{1,40})?$/;

/** text/plain "5.0.4" (some proxies quote it). */
export function parseReleaseText(text: string): string | null {
  const t = text.trim().replace(/^"(.*)"$/, '$1');
  return VERSION.test(t) ? t : null;
}

export function factsFromMgmtApi(answers: Partial<Record<MgmtApiGet, string>>, address: string): MgmtNodeFacts {
  const unparsed: MgmtNodeFacts['unparsed'] = [];
  const nodetool: Record<string, unknown> = {};
  const facts: NodeFacts = { product: 'cassandra' };
  let endpoints: MgmtEndpoints | null = null;
  if (answers.endpoints !== undefined) {
    const p = parseMgmtEndpoints(answers.endpoints);
    if (p.ok) {
      endpoints = p.value;
      nodetool['status'] = statusFromEndpoints(p.value);
    } else unparsed.push({ name: 'mgmt-api:endpoints', reason: p.reason });
  }
  const self = endpoints?.endpoints.find((e) => e.isLocal) ?? endpoints?.endpoints.find((e) => e.address === address) ?? null;
  if (answers.schemaVersions !== undefined) {
    const p = parseMgmtSchemaVersions(answers.schemaVersions);
    if (p.ok) nodetool['describecluster'] = describeClusterFrom(p.value, endpoints);
    else unparsed.push({ name: 'mgmt-api:schemaVersions', reason: p.reason });
  }
  if (answers.compactions !== undefined) {
    const p = parseMgmtCompactions(answers.compactions);
    if (p.ok) nodetool['compactionstats'] = p.value;
    else unparsed.push({ name: 'mgmt-api:compactions', reason: p.reason });
  }
  if (answers.release !== undefined) {
    const v = parseReleaseText(answers.release);
    if (v) facts.releaseVersion = v;
    else unparsed.push({ name: 'mgmt-api:release', reason: 'not a release version (e.g. 5.0.4)' });
  }
  if (self) {
    facts.releaseVersion ??= self.releaseVersion ?? undefined;
    if (self.datacenter) facts.datacenter = self.datacenter;
    if (self.rack) facts.rack = self.rack;
    if (self.hostId) facts.hostId = self.hostId;
    if (self.schemaVersion) facts.schemaVersion = self.schemaVersion;
  }
  if (facts.releaseVersion === undefined) delete facts.releaseVersion;
  return { facts, nodetool, unparsed, self };
}
