// Loaded into a child process (`NODE_OPTIONS=--import …`): every host under `.invalid` is unknown, as a
// resolver answers for a misspelt host, whatever DNS the machine has (or none: then a lookup times out or
// says EAI_AGAIN). Other hosts are looked up as usual.
import dns from 'node:dns';

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
