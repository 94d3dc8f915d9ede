// A free port of 127.0.0.1, for the servers the tests, checks and benchmarks start of their own (Redis,
// PostgreSQL, the release rehearsal's registry). The one home of that trick.
import { once } from 'node:events';
import { createServer } from 'node:net';

/**
 * A port of 127.0.0.1 that no one listens on, now (another process may take it before the caller binds it:
 * a caller that cannot bind tries again).
 *
 * @returns {Promise<number>}
 */
export async function freePort() {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
