import type { StartMockServerOptions } from '../server.js';

/**
 * Says what went wrong when the listener could not start, and how to fix it.
 *
 * @param error - what `listen` threw.
 * @param options - the port and host asked for.
 * @returns the message, or undefined when the error is not a listen error.
 */
export function listenErrorMessage(error: unknown, options: StartMockServerOptions): string | undefined {
  const port = options.port ?? 0;
  const host = options.host ?? '127.0.0.1';
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case 'EADDRINUSE':
      return `port ${port} on ${host} is already in use (another company-data-mock?). Stop that process, or choose another port: --port <n>, or --port 0 for any free one.`;
    case 'EACCES':
      return `no permission to listen on port ${port} on ${host}: ports below 1024 need privileges. Choose --port 1024 or above (default 4010), or --port 0.`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on host "${host}": it is not an address of this machine. Use --host 127.0.0.1 (the default), ::1, or 0.0.0.0 for every interface.`;
    default:
      return undefined;
  }
}
