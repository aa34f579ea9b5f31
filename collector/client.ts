/**
 * Who is asking, as far as limits need to know and no further: the client's address (taken
 * from `X-Forwarded-For` only through proxies the operator trusts) and the network prefix it
 * belongs to. Nothing here is stored; `source.ts` hashes prefixes, `rate-limit.ts` addresses.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import proxyaddr from 'proxy-addr';

/**
 * The address a request came from. Without trusted proxies it is the socket's peer; with them
 * (CIDRs or proxy-addr's names `loopback`, `linklocal`, `uniquelocal`), the right-most address
 * in `X-Forwarded-For` that is not itself a trusted proxy — an untrusted client cannot choose
 * its own address by sending the header.
 */
export function addressResolver(trustedProxies: string[]): (req: IncomingMessage | undefined) => string {
  const trust = proxyaddr.compile(trustedProxies);
  return (req) => {
    if (!req?.socket) return 'unknown';
    try {
      return proxyaddr(req, trust);
    } catch {
      return req.socket.remoteAddress ?? 'unknown';
    }
  };
}

/** Checks the operator's list once at start, naming the entry that is not a CIDR or a known name. */
export function parseTrustedProxies(text: string | undefined): string[] {
  const list = (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of list) {
    try {
      proxyaddr.compile(entry);
    } catch {
      throw new Error(`Invalid COLLECTOR_TRUSTED_PROXIES entry: '${entry}' (expected an address, a CIDR, or loopback, linklocal, uniquelocal)`);
    }
  }
  return list;
}

/**
 * The network an address belongs to: IPv4 /24, IPv6 /64 (one household or one mobile device
 * usually holds a whole /64, so counting single IPv6 addresses counts nothing). IPv4-mapped
 * IPv6 is IPv4. A string that is not an address is its own network.
 */
export function networkOf(address: string, v4Bits = 24, v6Bits = 64): string {
  if (!ipaddr.isValid(address)) return address;
  let a = ipaddr.process(address);
  // A 6to4 address (2002::/16) carries its site's IPv4 address in bits 16–47: each IPv4
  // address would otherwise be a /48 of its own, one voice per address instead of per /24.
  if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).range() === '6to4') a = new ipaddr.IPv4(a.toByteArray().slice(2, 6));
  // A Teredo address (2001::/32) carries its server's IPv4 address in bits 32–63 and its client's
  // public one, inverted, in bits 96–127: a server's clients all shared one /48, one network
  // (an honest Teredo user was refused after an attacker's 120 results through the same server).
  if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).range() === 'teredo')
    a = new ipaddr.IPv4(
      a
        .toByteArray()
        .slice(12, 16)
        .map((b) => b ^ 0xff),
    );
  const bytes = a.toByteArray();
  const keep = a.kind() === 'ipv4' ? v4Bits : v6Bits;
  const masked = bytes.map((b, i) => (i * 8 >= keep ? 0 : i * 8 + 8 <= keep ? b : b & (0xff << (8 - (keep - i * 8)))));
  return `${ipaddr.fromByteArray(masked).toString()}/${keep}`;
}

/**
 * The network one voice of the crowd stands for (source.ts), and what the daily cap counts:
 * IPv4 /24; IPv6 /48, the block a site is given (RIPE-690: a home gets a /48 or /56, and a
 * rented server often a /64 out of its host's /48). Counting /64s would give whoever holds a
 * /48 65,536 voices a day; a /48 is as costly to come by as a /24.
 */
export const SOURCE_V6_BITS = 48;
export function sourceNetworkOf(address: string): string {
  return networkOf(address, 24, SOURCE_V6_BITS);
}

/**
 * The key a per-client limit counts under: one IPv4 address, or one IPv6 /64. An IPv4 address
 * is written one way whatever the socket said: `::ffff:192.0.2.1` (a dual-stack socket's) is
 * `192.0.2.1`, which counted as a second address against the address cap (50 stored against 25).
 */
export function limitKeyOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const a = ipaddr.process(address);
  return a.kind() === 'ipv6' ? networkOf(address) : a.toString();
}

export interface Client {
  address: string;
  /** What limits count under: the IPv4 address, or the IPv6 /64. */
  limitKey: string;
}
