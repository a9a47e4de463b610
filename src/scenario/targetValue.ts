// The value of a `target` line: a connection profile's name, or a redis://, rediss://, unix:// or
// redis-sentinel:// URL checked as the runner will read it (src/protocol/redisUrl.ts), with a password
// written in the file refused.
import { replaceFix } from './diagnostics';
import { writableToken } from './writtenText';
import { parseRedisUrl, redactUrl } from '../protocol/redisUrl';
import type { Reader } from './valueReader';

export interface TargetValue {
  url?: string;
  profile?: string;
}

const PROFILE_NAME = /^[A-Za-z][A-Za-z0-9_.-]*$/;

/** A name a `target` line reads as a profile's (only such names are offered to complete one). */
export const isProfileName = (name: string): boolean => PROFILE_NAME.test(name);

/** The runner's own parse, said at the line; a password written in the file is refused as for redis:// URLs. */
function readSentinelTarget(reader: Reader, arg: Reader['args'][number]): TargetValue | undefined {
  const parsed = parseRedisUrl(arg.value);
  if (typeof parsed === 'string') return reader.fail(arg, parsed.replace(/^the target "[^"]*"/, `\`${redactUrl(arg.value)}\``), 'invalid-target');
  if (parsed.password !== undefined && reader.input.expanded.originsIn(arg.start, arg.end).has('file')) {
    return reader.fail(
      arg,
      'a password written in the file ends up in git — remove it from the URL and use `password env:NAME` or `password secret`',
      'literal-password',
    );
  }
  return { url: arg.value };
}

export function readTarget(reader: Reader): TargetValue | undefined {
  const arg = reader.one();
  if (!arg) return undefined;
  const value = arg.value;
  const schemeEnd = value.indexOf('://');
  if (schemeEnd < 0) {
    if (PROFILE_NAME.test(value)) return { profile: value };
    const fixes = /^[\w.-]+(:\d+)?(\/\d+)?$/.test(value) ? [replaceFix(reader.range(arg), `redis://${value}`)] : undefined;
    return reader.fail(
      arg,
      `\`${value}\` is neither a URL nor a profile name — write \`redis://${value}\` (or \`rediss://\` for TLS), or a profile name from the editor settings`,
      'invalid-target',
      fixes,
    );
  }
  const scheme = value.slice(0, schemeEnd).toLowerCase();
  if (scheme === 'redis-sentinel' || scheme === 'rediss-sentinel') return readSentinelTarget(reader, arg);
  if (scheme === 'unix') {
    // The same checks the runner makes (absolute path, only ?db=N, length), said at the line.
    const parsed = parseRedisUrl(value);
    return typeof parsed === 'string' ? reader.fail(arg, parsed.replace(/^the target "[^"]*"/, `\`${value}\``), 'invalid-target') : { url: value };
  }
  if (scheme !== 'redis' && scheme !== 'rediss') {
    return reader.fail(
      arg,
      `\`${scheme}://\` is not supported — write a \`redis://\` or \`rediss://\` URL, \`unix:///path/redis.sock\` for a unix socket, or \`redis-sentinel://host:26379/name\` for a Sentinel-managed primary`,
      'invalid-target',
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return reader.fail(
      arg,
      `\`${redactUrl(value)}\` is not a valid URL — write \`${scheme}://host:port/db\`, such as \`redis://127.0.0.1:6379\``,
      'invalid-target',
    );
  }
  if (!url.hostname) return reader.fail(arg, `\`${redactUrl(value)}\` has no host — write \`${scheme}://host:port\``, 'invalid-target');
  if (url.search || url.hash)
    return reader.fail(arg, 'URL options (`?…`, `#…`) are not read — use the settings `db`, `tls` and `user` instead', 'invalid-target');
  if (url.pathname !== '' && url.pathname !== '/' && !/^\/\d+$/.test(url.pathname)) {
    return reader.fail(arg, `\`${url.pathname}\` is not a database number — end the URL with \`/N\`, such as \`/0\`, or use \`db N\``, 'invalid-target');
  }
  if (url.password) {
    // Locate the password to learn where its characters came from (the file, or the environment).
    const authorityStart = schemeEnd + 3;
    const slash = value.indexOf('/', authorityStart);
    const userInfoEnd = value.lastIndexOf('@', (slash < 0 ? value.length : slash) - 1);
    const colon = value.indexOf(':', authorityStart);
    const from = arg.quoted ? arg.start : arg.start + colon + 1;
    const to = arg.quoted ? arg.end : arg.start + userInfoEnd;
    if (reader.input.expanded.originsIn(from, to).has('file')) {
      const withoutPassword = value.slice(0, colon) + value.slice(userInfoEnd);
      // The URL as an argument again: written as read, a quoted one's `\n` would become a real line break.
      const written = writableToken(withoutPassword);
      const fixes =
        reader.input.expanded.isSubstituted(arg.start, arg.end) || written === undefined
          ? undefined
          : [replaceFix(reader.range(arg), written, 'Remove the password from the URL')];
      return reader.fail(
        arg,
        "a password written in the file ends up in git — remove it from the URL and use `password env:NAME` or `password secret` (the editor's secret storage)",
        'literal-password',
        fixes,
      );
    }
  }
  return { url: value };
}
