/**
 * Figure 5: webhook integrity under load. 50 connections POST to the audience webhook, then to the lead
 * webhook, for a bounded time each, cycling through a bounded set of distinct contacts written in varying
 * formats (so concurrent duplicates are the norm). Afterwards every distinct phone must have exactly one
 * audience member and exactly one conversation: none lost, none duplicated.
 */
import { type Contact, caseEmail, formatPhone, makeContacts } from '../lib/contacts.js';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { type LoadResult, load } from '../lib/load.js';
import { type Check, type FigureResult, measurement } from '../lib/result.js';
import { type HostedServer, startHosted } from '../lib/servers.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'webhooks') as (typeof FIGURES)[number];
const CONNECTIONS = 50;

/** The first `contacts.length` bodies cover every contact once; after that contacts repeat pseudo-randomly. */
function bodies(
  contacts: readonly Contact[],
  make: (contact: Contact, variant: number) => object,
): () => string {
  let n = 0;
  return () => {
    const i = n < contacts.length ? n : (n * 2_654_435_761) % contacts.length;
    const body = make(contacts[i] as Contact, n);
    n++;
    return JSON.stringify(body);
  };
}

/** Compares the phones the server holds with the phones sent: lost, duplicated, unexpected. */
function integrity(
  id: string,
  label: string,
  expected: readonly Contact[],
  phones: readonly string[],
): Check {
  const counts = new Map<string, number>();
  for (const phone of phones) counts.set(phone, (counts.get(phone) ?? 0) + 1);
  const lost = expected.filter((c) => !counts.has(c.e164)).length;
  const duplicated = [...counts.values()].filter((n) => n > 1).length;
  const wanted = new Set(expected.map((c) => c.e164));
  const unexpected = [...counts.keys()].filter((p) => !wanted.has(p)).length;
  const pass = lost === 0 && duplicated === 0 && unexpected === 0;
  return {
    id,
    label,
    value: lost + duplicated + unexpected,
    unit: 'errors',
    target: '0 lost, 0 duplicated',
    pass,
    note: `${expected.length} distinct phones sent, ${counts.size} held; lost ${lost}, duplicated ${duplicated}, unexpected ${unexpected}.`,
  };
}

/** Runs figure 5. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  const r = new ResultBuilder(SPEC);
  const seconds = ctx.quick ? 2 : 5;
  const distinct = 1_000;
  r.method(
    `The mock's HTTP listener in a child process; autocannon here with ${CONNECTIONS} connections for ${seconds} s ` +
      `per webhook (one run each: the figure is an integrity check, the req/s are for scale). Bodies cycle ` +
      `through ${distinct} distinct contacts per webhook, each sent in six phone formats and three email casings; ` +
      `the first ${distinct} requests cover every contact, later ones repeat them. Afterwards members() and ` +
      `conversations() must hold exactly one member / conversation per distinct phone.`,
  );
  let server: HostedServer | undefined;
  try {
    server = await startHosted({ kind: 'mock', mockOptions: { quota: false } });
    const audienceToken = server.tokens.audience as string;
    const before = await server.call<{ phone?: string }[]>('members', audienceToken);
    const conversationsBefore = await server.call<{ phone: string }[]>('conversations');
    const headers = { 'content-type': 'application/json' };

    const audienceContacts = makeContacts(distinct, 1);
    const audience = await load({
      url: `${server.baseURL}/outbound-campaigns/webhook/${audienceToken}/`,
      method: 'POST',
      connections: CONNECTIONS,
      seconds,
      headers,
      body: bodies(audienceContacts, (c, v) => ({
        first_name: 'Bench',
        last_name: `Contact ${c.e164.slice(-4)}`,
        phone: formatPhone(c, v),
        email: caseEmail(c.email, v),
        custom_fields: { campaign: 'bench' },
      })),
    });
    ctx.log(
      `audience: ${Math.round(audience.rps)} req/s, ${audience.total} requests, non-2xx ${audience.non2xx}`,
    );

    const leadContacts = makeContacts(distinct, 2);
    const lead = await load({
      url: `${server.apiRoot}/messaging-agent/webhook/${server.tokens.lead}/`,
      method: 'POST',
      connections: CONNECTIONS,
      seconds,
      headers,
      body: bodies(leadContacts, (c, v) => ({
        phone_number: formatPhone(c, v),
        customer_name: 'Bench Lead',
        email: caseEmail(c.email, v),
        notes: 'load test',
        custom_fields: { campaign: 'bench' },
      })),
    });
    ctx.log(`lead: ${Math.round(lead.rps)} req/s, ${lead.total} requests, non-2xx ${lead.non2xx}`);

    const describe = (x: LoadResult) => ({
      'p50 ms': x.p50,
      'p99 ms': x.p99,
      requests: x.total,
      'non-2xx': x.non2xx,
      errors: x.errors,
    });
    r.measure(
      measurement(
        `audience webhook, ${CONNECTIONS} connections`,
        'req/s',
        [audience.rps],
        describe(audience),
      ),
    );
    r.measure(measurement(`lead webhook, ${CONNECTIONS} connections`, 'req/s', [lead.rps], describe(lead)));

    const beforePhones = new Set(before.map((m) => m.phone));
    const members = await server.call<{ phone?: string }[]>('members', audienceToken);
    const added = members.filter((m) => !beforePhones.has(m.phone)).map((m) => m.phone ?? '');
    r.check(
      integrity('webhooks.audience', 'audience: one member per distinct phone', audienceContacts, added),
    );

    const conversations = await server.call<{ phone: string; leads: unknown[] }[]>('conversations');
    const previous = new Set(conversationsBefore.map((c) => c.phone));
    const fresh = conversations.filter((c) => !previous.has(c.phone));
    r.check(
      integrity(
        'webhooks.lead',
        'lead: one conversation per distinct phone',
        leadContacts,
        fresh.map((c) => c.phone),
      ),
    );
    const leadsHeld = fresh.reduce((n, c) => n + c.leads.length, 0);
    r.note(
      `Audience: ${audience.total} requests (${audience.non2xx} non-2xx, ${audience.errors} errors) → ${added.length} new members. ` +
        `Lead: ${lead.total} requests (${lead.non2xx} non-2xx, ${lead.errors} errors) → ${fresh.length} new conversations ` +
        `holding ${leadsHeld} leads.`,
    );
    const clean = audience.non2xx + audience.errors + lead.non2xx + lead.errors === 0;
    r.check({
      id: 'webhooks.statuses',
      label: 'every webhook request answered 2xx',
      value: audience.non2xx + audience.errors + lead.non2xx + lead.errors,
      unit: 'failures',
      target: '0',
      pass: clean,
    });
    return r.build();
  } finally {
    await server?.close();
  }
}
