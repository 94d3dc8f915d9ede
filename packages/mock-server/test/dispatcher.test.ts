import { createMockServer } from '../src/index.js';
import { describeBehaviour } from './support/behaviour.js';
import { undiciSend } from './support/send.js';

describeBehaviour('in-process undici dispatcher', async (options) => {
  const server = createMockServer(options);
  return { server, send: undiciSend(server, true), close: () => server.close() };
});
