// Loaded into a child process (`NODE_OPTIONS=--import …`): every host under `.invalid` is unknown, as a
// resolver answers for a misspelt host, whatever DNS the machine has (or none: then a lookup times out or
// says EAI_AGAIN). Other hosts are looked up as usual. With UNKNOWN_HOSTS_LOG set, each lookup of such a host
// is a line in that file: a test counts the attempts without a clock.
import dns from 'node:dns';
import { appendFileSync } from 'node:fs';

const lookup = dns.lookup;

/**
 * `dns.lookup`, but for the `.invalid` hosts.
 *
 * @param {string} hostname
 * @param {unknown} options - or the callback.
 * @param {unknown} [callback]
 */
function unknownInvalidHosts(hostname, options, callback) {
  const done = /** @type {(error: Error) => void} */ (typeof options === 'function' ? options : callback);
  if (typeof hostname === 'string' && hostname.endsWith('.invalid')) {
    if (process.env.UNKNOWN_HOSTS_LOG) appendFileSync(process.env.UNKNOWN_HOSTS_LOG, `${hostname}\n`);
    const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
      code: 'ENOTFOUND',
      syscall: 'getaddrinfo',
      hostname,
    });
    process.nextTick(done, error);
    return;
  }
  Reflect.apply(
    lookup,
    dns,
    [hostname, options, callback].filter((argument) => argument !== undefined),
  );
}

dns.lookup = /** @type {typeof dns.lookup} */ (/** @type {unknown} */ (unknownInvalidHosts));
