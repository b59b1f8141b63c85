import { BlockList, isIP } from 'node:net';

/**
 * Which peers may tell us the client's address, protocol and host through `X-Forwarded-*`
 * (TANDEM_TRUSTED_PROXIES). Anyone else's forwarded headers are ignored: a client talking to us
 * directly could otherwise pick its own IP (and so its own rate-limit bucket), or make us believe
 * the request came over https or for another host.
 */
export type TrustedProxies =
  | { kind: 'none' }
  /** Trust this many hops in front of us, whatever their addresses (a fixed load balancer chain). */
  | { kind: 'hops'; hops: number }
  /** Trust peers whose address is in one of these IPs / CIDR ranges. */
  | { kind: 'addresses'; ranges: string[] };

/** proxy-addr's names for the usual private ranges, so a same-host proxy is just "loopback". */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/**
 * Parses TANDEM_TRUSTED_PROXIES: empty → trust none; a whole number → that many hops; otherwise a
 * comma-separated list of IPs, CIDRs and the names loopback, linklocal, uniquelocal. Returns a
 * message instead when the value is not one of these.
 */
export function parseTrustedProxies(value: string | undefined): TrustedProxies | string {
  const text = (value ?? '').trim();
  if (text === '' || text === '0' || text.toLowerCase() === 'none') return { kind: 'none' };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 32 ? { kind: 'hops', hops } : 'must be a hop count from 0 to 32';
  }
  const ranges: string[] = [];
  for (const raw of text.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const named = NAMED_RANGES[entry];
    if (named) {
      ranges.push(...named);
      continue;
    }
    if (!validRange(entry)) {
      return `must be a hop count or comma-separated IPs / CIDRs (or loopback, linklocal, uniquelocal); "${raw.trim()}" is neither`;
    }
    ranges.push(entry);
  }
  return ranges.length ? { kind: 'addresses', ranges } : { kind: 'none' };
}

function validRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  if (!/^\d+$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** `(address, hop) => trusted?`, the shape Fastify's `trustProxy` and proxy-addr take. */
export type TrustFunction = (address: string, hop: number) => boolean;

/** Compiles the setting into the one function every reader of forwarded headers uses. */
export function trustFunction(proxies: TrustedProxies): TrustFunction {
  if (proxies.kind === 'none') return () => false;
  if (proxies.kind === 'hops') {
    const { hops } = proxies;
    return (_address, hop) => hop < hops;
  }
  const list = new BlockList();
  for (const range of proxies.ranges) {
    const [address = '', prefix] = range.split('/');
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    // A dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d.
    const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  };
}

/** The last entry of a comma-joined header value: the one our nearest (trusted) proxy added. */
function lastEntry(value: string | string[] | undefined): string | undefined {
  const joined = Array.isArray(value) ? value.join(',') : value;
  const entry = joined?.split(',').pop()?.trim();
  return entry || undefined;
}

/**
 * The Host a raw Node request is for (previews see requests before Fastify does): the forwarded
 * host when our direct peer is a trusted proxy, else the Host header. Fastify's `request.host`
 * applies the same rule to the product's requests.
 */
export function forwardedHost(
  req: {
    headers: Record<string, string | string[] | undefined>;
    socket: { remoteAddress?: string | undefined };
  },
  trust: TrustFunction,
): string | undefined {
  const peer = req.socket.remoteAddress;
  const forwarded = peer && trust(peer, 0) ? lastEntry(req.headers['x-forwarded-host']) : undefined;
  const host = req.headers.host;
  return forwarded ?? (Array.isArray(host) ? host[0] : host);
}

/**
 * The X-Forwarded-For to send on (the preview proxy): the chain our trusted proxy reported plus
 * our peer, or only our peer when it is not trusted, so a client cannot start the chain with an
 * address of its choosing.
 */
export function forwardedFor(
  req: {
    headers: Record<string, string | string[] | undefined>;
    socket: { remoteAddress?: string | undefined };
  },
  trust: TrustFunction,
): string {
  const peer = req.socket.remoteAddress ?? '';
  const header = req.headers['x-forwarded-for'];
  const incoming = peer && trust(peer, 0) ? (Array.isArray(header) ? header.join(', ') : header) : undefined;
  return incoming ? `${incoming}, ${peer}` : peer;
}
