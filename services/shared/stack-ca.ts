/**
 * The certificates behind the stack's secure LAN route: a CA made at start (new on every start, so
 * nothing outside this run can trust it by accident, unless the stack keeps it in its state directory:
 * docs/services.md, "Keeping state across a restart") and one server certificate it issues for the
 * addresses the stack listens on. A client that should trust the route is given the CA's PEM.
 */
import { isIP } from 'node:net';
import { generate } from 'selfsigned';
import { hubCertificateName } from '../../common/hub-identity';

export interface StackCertificates {
  /** The CA certificate, PEM: what a client adds to its trusted roots. */
  ca: string;
  /** The server's key and certificate, PEM, issued by the CA. */
  server: { key: string; cert: string };
}

const VALIDITY_MS = 30 * 86_400_000;

/**
 * `hosts`: IP addresses and DNS names the server certificate must cover (`[::1]` brackets allowed);
 * `hubIds`: the hubs it names (a URI name each, common/hub-identity.ts), so that it also proves which
 * hub answers at an address heard over mDNS, whatever that address is.
 */
export async function createStackCertificates(hosts: readonly string[], hubIds: readonly string[] = []): Promise<StackCertificates> {
  const notBeforeDate = new Date(Date.now() - 60_000); // a little clock skew must not make it "not yet valid"
  const notAfterDate = new Date(notBeforeDate.getTime() + VALIDITY_MS);
  const common = { keyType: 'ec', curve: 'P-256', algorithm: 'sha256', notBeforeDate, notAfterDate } as const;
  const ca = await generate([{ name: 'commonName', value: 'Hubdesk stack CA' }], {
    ...common,
    extensions: [
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const altNames = [
    ...[...new Set(hosts.map((host) => host.replace(/^\[(.*)\]$/, '$1')))].map((host) =>
      isIP(host) ? { type: 7 as const, ip: host } : { type: 2 as const, value: host },
    ),
    ...hubIds.map((hubId) => ({ type: 6 as const, value: hubCertificateName(hubId) })),
  ];
  const server = await generate([{ name: 'commonName', value: 'Hubdesk stack hub' }], {
    ...common,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  return { ca: ca.cert, server: { key: server.private, cert: server.cert } };
}
