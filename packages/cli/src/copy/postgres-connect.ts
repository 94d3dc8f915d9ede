// The connection a copy or a check of it opens: named so that another run can say who holds the copy
// (./postgres-lock.ts), kept alive, and listened to, so that the server going away between two statements
// (a shutdown: 57P01; the socket closed) ends the run with its reason instead of crashing the process.
import type { Client } from 'pg';
import { applicationName } from './postgres-lock.js';

/** A connection and what ended it, if anything did while it was held. */
export interface CopyConnection {
  readonly client: Client;
  /** The first error the connection reported between statements: what a later "not queryable" means. */
  readonly lost: { error: Error | undefined };
}

/**
 * Opens a connection for a copy or a check.
 *
 * @param connectionString - `postgres://…`.
 * @param command - what this run is, as another run names it (`company-data sync calls`).
 * @throws `pg`'s errors when the database cannot be reached or refuses the login.
 */
export async function connectForCopy(
  connectionString: string | undefined,
  command: string | undefined,
): Promise<CopyConnection> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({
    connectionString,
    application_name: applicationName(command),
    keepAlive: true,
  });
  const lost: { error: Error | undefined } = { error: undefined };
  // Without a listener, an error between statements would be thrown by the event emitter, ending the
  // process. The first one says why; the socket's end follows it.
  client.on('error', (error: Error) => {
    lost.error ??= error;
  });
  await client.connect();
  return { client, lost };
}
