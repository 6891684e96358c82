/** Incidents for the local lab: registry, host checks, and running one. */
export { INCIDENTS, incidentNames, findIncident } from './registry.js';
export { detectHost, skipReason, type HostCapabilities, type HostProbe } from './host.js';
export { runIncident, listIncidents, type IncidentRunResult, type IncidentListing } from './run.js';
export type { Incident, IncidentContext, HostNeed, LatteRun } from './types.js';
export { INCIDENT_KEYSPACE } from './types.js';
