import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where webhooks may be sent (server-side request forgery): http and https only, and never to this machine or a
 * private network. Checked on create and update (the URL as written) and again at send time on every address
 * the host name resolves to (a name may point anywhere later: DNS rebinding). `allowPrivate` (WEBHOOK_ALLOW_PRIVATE)
 * lifts the address checks.
 */

/** The host of a URL without IPv6 brackets. */
const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** IPv6's global unicast space, all IANA allocates to the internet; the rest (`::/96`, IPv4-compatible, too) is reserved. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
/** Prefixes whose last 32 bits are the IPv4 address packets reach: IPv4-mapped (`::ffff:0:0/96`) and NAT64's (RFC 6052). */
const EMBEDS_IPV4 = [ipaddr.IPv6.parseCIDR('::ffff:0:0/96'), ipaddr.IPv6.parseCIDR('64:ff9b::/96')];

/** `::a.b.c.d` as name resolution writes an IPv4-compatible address; ipaddr.js would read it as IPv4-mapped. */
const IPV4_COMPATIBLE_DOTTED = /^::\d+\.\d+\.\d+\.\d+$/;

/**
 * True for a public unicast address: not loopback, private, link-local, unique-local, multicast, unspecified or
 * reserved. An IPv6 address that embeds the IPv4 address it reaches is judged by that address's own range.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address) || IPV4_COMPATIBLE_DOTTED.test(address)) return false;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  const v6 = ip as ipaddr.IPv6;
  if (EMBEDS_IPV4.some((prefix) => v6.match(prefix))) return new ipaddr.IPv4(v6.toByteArray().slice(12)).range() === 'unicast';
  return v6.match(GLOBAL_UNICAST) && v6.range() === 'unicast';
}

/** Why `raw` cannot be a webhook URL, or undefined when it can. */
export function targetProblem(raw: string, allowPrivate: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Enter a valid URL.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Webhook URLs must use http or https.';
  if (!url.hostname) return 'Enter a valid URL.';
  if (url.username || url.password) return 'Webhook URLs must not contain credentials.';
  if (allowPrivate) return undefined;
  const host = bareHost(url).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'Webhook URLs must not point at this machine.';
  if (ipaddr.isValid(host) && !isPublicAddress(host)) return 'Webhook URLs must not point at a loopback, private or reserved address.';
  return undefined;
}

export class RefusedAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_ADDRESS_REFUSED';
}

/**
 * A `lookup` for node:http(s) that resolves as usual and fails when any address of the name is not public, so the
 * connection is made only to an address that was checked (no second resolution in between).
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 4);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) return callback(new RefusedAddressError(`${hostname} resolves to ${refused.address}, a loopback, private or reserved address`), '', 4);
    if (options.all) return (callback as unknown as (e: null, all: dns.LookupAddress[]) => void)(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 4);
    callback(null, first.address, first.family);
  });
};

/** Why the URL must not be requested now (its host is an address literal that is not public), or undefined. */
export function literalAddressProblem(url: URL): string | undefined {
  const host = bareHost(url);
  if (ipaddr.isValid(host) && !isPublicAddress(host)) return `${host} is a loopback, private or reserved address`;
  return undefined;
}
