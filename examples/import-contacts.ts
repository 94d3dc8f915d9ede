// Imports contacts from a CSV file into an outbound-campaign audience, through the audience's webhook.
// Columns first_name, last_name, phone and email are the member's; any other non-empty column becomes a
// custom field (a template variable in campaign messages). Safe to run again: a contact whose phone (any
// format) or e-mail (any case) is already in the audience is returned as it is, not added twice.
//
//   COMPANY_DATA_AUDIENCE_WEBHOOK=https://…/outbound-campaigns/webhook/<token>/ \
//     npx tsx examples/import-contacts.ts examples/contacts.csv
//
// COMPANY_DATA_AUDIENCE_WEBHOOK is the URL from the audience detail view, or its bare token (then
// COMPANY_DATA_BASE_URL says where the API is). Exits with 1 when a row was rejected.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  type AudienceMemberInput,
  BadRequestError,
  CompanyData,
  CompanyDataError,
  ValidationError,
} from '@company-data/sdk';
import { readCsvRecords } from './lib/csv.js';

const MEMBER_COLUMNS = new Set(['first_name', 'last_name', 'phone', 'email']);

const { positionals } = parseArgs({ allowPositionals: true });
const [file] = positionals;
const webhook = process.env.COMPANY_DATA_AUDIENCE_WEBHOOK;
if (!file || !webhook) {
  console.error(
    'Usage: COMPANY_DATA_AUDIENCE_WEBHOOK=<webhook URL or token> import-contacts.ts <contacts.csv>',
  );
  process.exit(2);
}

/** The webhook body for one CSV row: empty cells are left out. */
function memberFrom(row: Record<string, string>): AudienceMemberInput {
  const member: Record<string, string> = {};
  const customFields: Record<string, string> = {};
  for (const [column, raw] of Object.entries(row)) {
    const value = raw.trim();
    if (value === '') continue;
    if (MEMBER_COLUMNS.has(column)) member[column] = value;
    else customFields[column] = value;
  }
  return { ...member, custom_fields: customFields };
}

const rows = readCsvRecords(await readFile(file, 'utf8'));
const client = new CompanyData();
const counts = { added: 0, existing: 0, rejected: 0 };

try {
  // One row at a time keeps the output in file order; the client waits out any 429 for us.
  for (const [index, row] of rows.entries()) {
    const line = index + 2; // the header is line 1
    try {
      const { data: member, response } = await client.audiences
        .addMember(webhook, memberFrom(row))
        .withResponse();
      const added = response.status === 201;
      counts[added ? 'added' : 'existing']++;
      console.log(`line ${line}: ${added ? 'added' : 'already in the audience'} ${member.id}`);
    } catch (error) {
      // A row without phone or e-mail (caught before sending) or one the server refuses (an invalid phone):
      // report it and go on with the next.
      if (!(error instanceof ValidationError || error instanceof BadRequestError)) throw error;
      counts.rejected++;
      console.error(`line ${line}: rejected: ${error.detail ?? error.message}`);
    }
  }
  console.log(`${counts.added} added, ${counts.existing} already there, ${counts.rejected} rejected`);
  if (counts.rejected > 0) process.exitCode = 1;
} catch (error) {
  if (!(error instanceof CompanyDataError)) throw error;
  console.error(`Import stopped: ${error.message}`);
  process.exitCode = 1;
} finally {
  await client.close();
}
