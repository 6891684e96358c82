import type cassandra from 'cassandra-driver';
import { entryFor, splitEndpoint } from '../core/credential-hosts.js';
import { clearTextWarning, type CredentialHosts } from './credential-hosts.js';
import type { CassandraDriver } from './cql-driver.js';

/**
 * Binds the CQL password to allowed hosts, per connection. The driver asks the auth provider for an
 * authenticator on every connection that the server answers with AUTHENTICATE (contact points and the peers
 * it discovers alike), giving the endpoint it connected to: only an allowed endpoint gets the user's
 * PlainTextAuthenticator. Any other gets one that sends nothing and fails with the reason.
 */

type Authenticator = cassandra.auth.Authenticator;

export interface CredentialLedger {
  /** Endpoints ("host:port") that asked for credentials and were refused them. */
  withheld: Map<string, { host: string; port: number }>;
  /** Warnings for the result (password without TLS). */
  warnings: Set<string>;
}

export const WITHHELD_MARK = 'credentials withheld:';

export interface BoundAuthOptions {
  username: string;
  password: string;
  hosts: CredentialHosts;
  tls: boolean;
  ledger: CredentialLedger;
}

type ProviderClass = new (opts: BoundAuthOptions) => cassandra.auth.AuthProvider;
let providerClass: ProviderClass | null = null;

function defineProvider(driver: CassandraDriver): ProviderClass {
  // The driver checks `instanceof auth.AuthProvider`; its typings declare only an interface.
  const Base = (driver.auth as unknown as { AuthProvider: new () => object }).AuthProvider;
  return class BoundAuthProvider extends Base {
    constructor(private readonly opts: BoundAuthOptions) {
      super();
    }

    newAuthenticator(endpoint: string, name: string): Authenticator {
      const at = splitEndpoint(endpoint);
      const why = at ? this.opts.hosts.allows(at.host, at.port) : null;
      if (at && why) {
        const warn = this.opts.tls ? null : clearTextWarning('the CQL password', at.host, at.port, 'CQL_TUNER_CQL_TLS');
        if (warn) this.opts.ledger.warnings.add(warn);
        return new driver.auth.PlainTextAuthProvider(this.opts.username, this.opts.password).newAuthenticator(endpoint, name);
      }
      const host = at?.host ?? endpoint;
      const port = at?.port ?? 0;
      this.opts.ledger.withheld.set(entryFor(host, port), { host, port });
      return withholdingAuthenticator(driver, host, port);
    }
  };
}

function withholdingAuthenticator(driver: CassandraDriver, host: string, port: number): Authenticator {
  const refuse = (callback: (err: Error | null, token?: Buffer) => void) =>
    callback(new driver.errors.AuthenticationError(`${WITHHELD_MARK} ${entryFor(host, port)} asks for a password but is not in CQL_TUNER_CREDENTIAL_HOSTS`));
  return {
    initialResponse: refuse,
    evaluateChallenge: (_challenge: Buffer, callback: (err: Error | null, token?: Buffer) => void) => refuse(callback),
    onAuthenticationSuccess: () => {},
  };
}

export function boundAuthProvider(driver: CassandraDriver, opts: BoundAuthOptions): cassandra.auth.AuthProvider {
  providerClass ??= defineProvider(driver);
  return new providerClass(opts);
}
