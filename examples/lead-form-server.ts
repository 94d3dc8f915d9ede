// A small lead-form backend on node:http: it serves a form, accepts its POST (a browser form or JSON) and
// submits the lead with the SDK. The lead webhook needs no API key: its secret token authenticates, so it
// stays here on the server and never reaches the browser.
//
//   COMPANY_DATA_LEAD_WEBHOOK=https://…/messaging-agent/webhook/<token>/ npx tsx examples/lead-form-server.ts --port 3000
//
// COMPANY_DATA_LEAD_WEBHOOK is the lead source's webhook URL, or its bare token (then COMPANY_DATA_BASE_URL
// says where the API is). Stop the server with Ctrl+C or SIGTERM: it finishes the requests in progress first.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { CompanyData, CompanyDataError, type LeadInput, ValidationError } from '@company-data/sdk';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '3000' }, host: { type: 'string', default: '127.0.0.1' } },
});
const webhook = process.env.COMPANY_DATA_LEAD_WEBHOOK;
if (!webhook) {
  console.error('Set COMPANY_DATA_LEAD_WEBHOOK to the webhook URL (or token) of your custom lead source.');
  process.exit(2);
}

const MAX_BODY_BYTES = 16 * 1024;
/** The form fields passed on to the lead webhook as they are. */
const LEAD_FIELDS = [
  'phone_number',
  'customer_name',
  'email',
  'address',
  'city',
  'state',
  'zip',
  'notes',
  'service_type',
  'utm_source',
  'utm_medium',
  'utm_campaign',
] as const;

const FORM = `<!doctype html>
<meta charset="utf-8"><title>Request a quote</title>
<form method="post" action="/leads">
  <label>Name <input name="customer_name" autocomplete="name"></label>
  <label>Phone <input name="phone_number" type="tel" autocomplete="tel" required></label>
  <label>E-mail <input name="email" type="email" autocomplete="email"></label>
  <label>ZIP <input name="zip" autocomplete="postal-code"></label>
  <label>Service <select name="service_type"><option>roof repair</option><option>gutter cleaning</option></select></label>
  <label>Notes <textarea name="notes"></textarea></label>
  <button>Call me back</button>
</form>
`;

// One client for the whole server: it keeps connections alive and rate limits apply to it as a whole.
const client = new CompanyData();

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'The form is too large.');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The lead from a browser form (urlencoded) or a JSON body; unknown and empty fields are left out. */
function leadFrom(request: IncomingMessage, body: string): LeadInput {
  let fields: Record<string, unknown>;
  if (request.headers['content-type']?.startsWith('application/json')) {
    try {
      fields = JSON.parse(body);
    } catch {
      throw new HttpError(400, 'The body is not JSON.');
    }
  } else {
    fields = Object.fromEntries(new URLSearchParams(body));
  }
  const lead: Partial<Record<(typeof LEAD_FIELDS)[number] | 'page_url', string>> = {};
  for (const name of LEAD_FIELDS) {
    const value = fields[name];
    if (typeof value === 'string' && value.trim() !== '') lead[name] = value.trim();
  }
  // The page the form was on, for the lead's context.
  if (request.headers.referer) lead.page_url = request.headers.referer;
  // `phone_number` may be missing here: the SDK checks it and throws a ValidationError before sending.
  return lead as LeadInput;
}

function reply(request: IncomingMessage, response: ServerResponse, status: number, message: string): void {
  const json = request.headers.accept?.includes('application/json');
  response.writeHead(status, { 'content-type': json ? 'application/json' : 'text/html; charset=utf-8' });
  response.end(
    json
      ? JSON.stringify(status < 400 ? { ok: true, message } : { ok: false, error: message })
      : `<!doctype html><meta charset="utf-8"><p>${message}</p><p><a href="/">Back</a></p>\n`,
  );
}

async function acceptLead(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const lead = leadFrom(request, await readBody(request));
  try {
    await client.leads.submit(webhook as string, lead, { signal: AbortSignal.timeout(15_000) });
  } catch (error) {
    if (error instanceof ValidationError) throw new HttpError(422, 'Please enter your phone number.');
    if (error instanceof CompanyDataError) {
      console.error(`Lead not submitted: ${error.message}`);
      throw new HttpError(502, 'Sorry, we could not take your request right now. Please try again later.');
    }
    throw error;
  }
  reply(request, response, 200, 'Thank you! We will text you shortly.');
}

const server = createServer(async (request, response) => {
  const { pathname } = new URL(request.url ?? '/', 'http://localhost');
  try {
    if (request.method === 'GET' && pathname === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(FORM);
    } else if (request.method === 'POST' && pathname === '/leads') {
      await acceptLead(request, response);
    } else {
      reply(request, response, 404, 'Not found.');
    }
  } catch (error) {
    if (!(error instanceof HttpError)) console.error(error);
    const status = error instanceof HttpError ? error.status : 500;
    reply(request, response, status, error instanceof HttpError ? error.message : 'Internal error.');
  }
  console.log(`${request.method} ${pathname} ${response.statusCode}`);
});

let stopping = false;
function stop(signal: NodeJS.Signals): void {
  // Once is enough: a Ctrl+C can arrive twice (from the terminal and from a runner that passes it on, as
  // examples/with-mock.mjs does), and the second must not kill the process while it stops.
  if (stopping) return;
  stopping = true;
  console.log(`${signal} received, stopping`);
  // Stop accepting connections, let requests in progress finish, then release the SDK's sockets.
  server.close(async () => {
    await client.close();
    console.log('Stopped');
  });
  server.closeIdleConnections();
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

server.listen(Number(values.port), values.host, () => {
  const { port } = server.address() as AddressInfo;
  console.log(`Lead form on http://${values.host}:${port}/ (Ctrl+C to stop)`);
});
