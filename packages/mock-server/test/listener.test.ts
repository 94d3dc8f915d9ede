import { startMockServer } from '../src/index.js';
import { describeBehaviour } from './support/behaviour.js';
import { undiciSend } from './support/send.js';

describeBehaviour('node:http listener on loopback', async (options) => {
  const server = await startMockServer({ ...options, port: 0 });
  return { server, send: undiciSend(server, false), close: () => server.close() };
});
