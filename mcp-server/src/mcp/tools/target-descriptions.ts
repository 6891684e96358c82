import { TRUSTED_ONLY_OPTIONS } from '../../collect/target-defaults.js';

/** nodetoolVia as a tool argument: no ?identity= / ?config= (untrusted); the server environment supplies them. */
export const NODETOOL_VIA_DESCRIPTION =
  'Run nodetool on each node through a target such as ssh://ops@{host} or k8s://namespace/{host} ({host} = node address); JMX then defaults to 127.0.0.1. ' +
  'The ssh key, ssh_config, known_hosts, kubeconfig and kube context come from the server environment ' +
  `(${Object.values(TRUSTED_ONLY_OPTIONS).join(', ')}), not from this argument`;
