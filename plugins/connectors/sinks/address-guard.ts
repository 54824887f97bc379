import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export type AddressClass = 'loopback' | 'private' | 'link-local' | 'reserved';

const RANGES: Array<[AddressClass, string, number, 'ipv4' | 'ipv6']> = [
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['loopback', '::1', 128, 'ipv6'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['private', '100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['private', 'fc00::', 7, 'ipv6'], // unique local
  ['link-local', '169.254.0.0', 16, 'ipv4'], // cloud metadata services live here
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['reserved', '0.0.0.0', 8, 'ipv4'],
  ['reserved', '224.0.0.0', 4, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  ['reserved', '::', 128, 'ipv6'],
  ['reserved', 'ff00::', 8, 'ipv6'],
];

const lists = new Map<AddressClass, BlockList>();
for (const [kind, network, prefix, family] of RANGES) {
  let list = lists.get(kind);
  if (!list) lists.set(kind, (list = new BlockList()));
  list.addSubnet(network, prefix, family);
}

/** The class of an address that is not public, or null for a public one. IPv4-mapped IPv6 is read as IPv4. */
export function classify(address: string): AddressClass | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = mapped ? (mapped[1] as string) : address;
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  for (const [kind, list] of lists) if (list.check(ip, family)) return kind;
  return null;
}

/**
 * Resolves a host and refuses it when any of its addresses is not public (unless its class is
 * allowed). The caller connects to the address returned, never resolving again, so a name that
 * resolves to a public address here cannot point elsewhere at connect time (DNS rebinding).
 */
export async function resolvePublic(
  host: string,
  allow: readonly string[],
): Promise<{ address: string; family: 4 | 6 }> {
  const bare = host.replace(/^\[|\]$/g, '');
  const addresses = isIP(bare)
    ? [{ address: bare, family: isIP(bare) as 4 | 6 }]
    : ((await lookup(bare, { all: true, verbatim: true })) as Array<{ address: string; family: 4 | 6 }>);
  if (addresses.length === 0) throw new Error(`${host} resolves to no address`);
  for (const { address } of addresses) {
    const kind = classify(address);
    if (kind !== null && !allow.includes(kind))
      throw new Error(
        `refused: ${host} resolves to ${address}, a ${kind} address (allow it in settings.connectors.http.allow)`,
      );
  }
  return addresses[0] as { address: string; family: 4 | 6 };
}
