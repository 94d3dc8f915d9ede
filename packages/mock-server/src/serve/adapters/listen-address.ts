/** The interface a listener binds when none is given: loopback, never the network by surprise. */
export const DEFAULT_HOST = '127.0.0.1';

/** Where a listener was asked to listen: the port and host of `startMockServer` and of the CLI. */
export interface ListenAddress {
  /** Port; 0 (default) picks a free one. */
  readonly port?: number | undefined;
  /** Interface to bind (default {@link DEFAULT_HOST}, `127.0.0.1`). */
  readonly host?: string | undefined;
}

/** How the fix names a setting: as the CLI's flag (`--port 0`) or as `startMockServer`'s option (`{ port: 0 }`). */
export type SettingSpelling = 'flag' | 'option';

/**
 * Says what went wrong when the listener could not start, and how to fix it: one message for the CLI and
 * for `startMockServer`, each naming the setting its own way.
 *
 * @param error - what `listen` threw.
 * @param options - the port and host asked for.
 * @param spelling - how to name the setting to change (default: the CLI's flags).
 * @returns the message, or undefined when the error is not a listen error.
 */
export function listenErrorMessage(
  error: unknown,
  options: ListenAddress,
  spelling: SettingSpelling = 'flag',
): string | undefined {
  const port = options.port ?? 0;
  const host = options.host ?? DEFAULT_HOST;
  const set = (name: 'port' | 'host', value: string | number): string =>
    spelling === 'flag'
      ? `--${name} ${value}`
      : `{ ${name}: ${typeof value === 'number' || value === '<n>' ? value : `'${value}'`} }`;
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case 'EADDRINUSE':
      return `port ${port} on ${host} is already in use (another company-data-mock?). Stop that process, or choose another port: ${set('port', '<n>')}, or ${set('port', 0)} for any free one.`;
    case 'EACCES':
      return `no permission to listen on port ${port} on ${host}: ports below 1024 need privileges. Choose ${set('port', 1024)} or above (default 4010), or ${set('port', 0)}.`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on host "${host}": it is not an address of this machine. Use ${set('host', DEFAULT_HOST)} (the default), ::1, or 0.0.0.0 for every interface.`;
    default:
      return undefined;
  }
}
