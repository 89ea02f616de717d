import ipaddr from 'ipaddr.js';

/**
 * What the failure throttles count a client by: its IPv4 address, or the /64 of its IPv6 address (a home or a server
 * is given a whole /64, so counting single IPv6 addresses would give it 2^64 fresh starts). IPv4 written as IPv6
 * (`::ffff:1.2.3.4`) is its IPv4 address. The address is the connection's, or with TRUST_PROXY the one the proxy names.
 */
export function clientNetwork(ip: string): string {
  if (!ip.includes(':') || !ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}
