// Reads a Sentinel target: `redis-sentinel://[user[:pass]@]host[:port][,host[:port]…]/primary-name[?db=N]`
// (`rediss-sentinel://` for TLS to the sentinels and the data nodes). A URL with several hosts is not a
// WHATWG URL (the comma list breaks its port rule), so it is read by hand here.
import { isIPv6 } from 'node:net';
import { formatAddress } from '../gates/network';

export const DEFAULT_SENTINEL_PORT = 26379;

export interface SentinelNode {
  host: string;
  port: number;
}

export interface ParsedSentinelUrl {
  tls: boolean;
  nodes: SentinelNode[];
  /** The name the sentinels monitor the primary under (`sentinel monitor NAME …`). */
  name: string;
  user?: string;
  password?: string;
  db?: number;
}

const SCHEME = /^(rediss?)-sentinel:\/\//i;
const EXPECTED = 'expected redis-sentinel://host:port[,host:port…]/primary-name (port 26379 by default; rediss-sentinel:// for TLS)';
/** Sentinel primary names are plain words in practice; this keeps spaces and slashes out of commands and messages. */
const PRIMARY_NAME = /^[A-Za-z0-9_.:-]+$/;

export function isSentinelUrl(text: string): boolean {
  return SCHEME.test(text);
}

/** The parsed URL, or a message that names the URL (password hidden by the caller's `shown`) and the fix. */
export function parseSentinelUrl(text: string, shown: string): ParsedSentinelUrl | string {
  const scheme = SCHEME.exec(text);
  if (!scheme) return `the target "${shown}" is not a Sentinel URL: ${EXPECTED}`;
  let rest = text.slice(scheme[0].length);
  const parsed: Partial<ParsedSentinelUrl> = { tls: scheme[1].toLowerCase() === 'rediss' };
  const hash = rest.indexOf('#');
  if (hash >= 0) return `the target "${shown}" has a #fragment, which is not read: remove it`;
  const slash = rest.indexOf('/');
  const authority = slash < 0 ? rest : rest.slice(0, slash);
  rest = slash < 0 ? '' : rest.slice(slash + 1);
  const at = authority.lastIndexOf('@');
  if (at >= 0) {
    const userInfo = authority.slice(0, at);
    const colon = userInfo.indexOf(':');
    const user = colon < 0 ? userInfo : userInfo.slice(0, colon);
    if (user) parsed.user = decodeURIComponent(user);
    if (colon >= 0 && colon < userInfo.length - 1) parsed.password = decodeURIComponent(userInfo.slice(colon + 1));
  }
  const nodes = readNodes(authority.slice(at + 1), shown);
  if (typeof nodes === 'string') return nodes;
  parsed.nodes = nodes;

  const question = rest.indexOf('?');
  const name = decodeURIComponent(question < 0 ? rest : rest.slice(0, question));
  if (!name)
    return `the target "${shown}" names no primary: end it with /NAME, the name the sentinels monitor (\`sentinel monitor NAME …\`), e.g. redis-sentinel://10.0.0.5:26379/mymaster`;
  if (!PRIMARY_NAME.test(name))
    return `the target "${shown}" names the primary "${name}": a primary name is one word (letters, digits, _ . : -) after the hosts, e.g. /mymaster`;
  parsed.name = name;
  if (question >= 0) {
    for (const [option, value] of new URLSearchParams(rest.slice(question + 1))) {
      if (option !== 'db' || !/^\d+$/.test(value)) {
        return `the target "${shown}" has the option ?${option}=${value}: a Sentinel URL only takes ?db=N (or use the \`db\` setting)`;
      }
      parsed.db = Number(value);
    }
  }
  return parsed as ParsedSentinelUrl;
}

function readNodes(list: string, shown: string): SentinelNode[] | string {
  if (!list) return `the target "${shown}" has no sentinel host: ${EXPECTED}`;
  const nodes: SentinelNode[] = [];
  for (const item of list.split(',')) {
    const match = /^(\[[^\]]*\]|[^:[\]]*)(?::(\d*))?$/.exec(item);
    const host = match?.[1].replace(/^\[(.*)\]$/, '$1') ?? '';
    if (!match || !host || (match[1].startsWith('[') && !isIPv6(host))) {
      return `the target "${shown}" has the sentinel address "${item}": write host or host:port (an IPv6 address in brackets), separated by commas`;
    }
    const port = match[2] ? Number(match[2]) : DEFAULT_SENTINEL_PORT;
    if (match[2] === '' || port < 1 || port > 65535)
      return `the target "${shown}" has the sentinel address "${item}": the port must be a number from 1 to 65535`;
    nodes.push({ host, port });
  }
  return nodes;
}

/** `host:port,host:port` with IPv6 hosts in brackets, as the display URL and messages write the sentinels. */
export function sentinelList(nodes: readonly SentinelNode[]): string {
  return nodes.map((node) => formatAddress(node)).join(',');
}
