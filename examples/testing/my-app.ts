// The code under test: what your own application might do with the Company Data API. The test files
// next to it show how to test it against the mock server, without network and without real waiting.
import type { CallSource, CompanyData } from '@company-data/sdk';

/** How one rep's calls turn into bookings. */
export interface RepBookings {
  /** The rep's user id. */
  userId: string;
  /** The rep's name. */
  name: string;
  /** Calls handled. */
  calls: number;
  /** Calls that ended in a booking. */
  booked: number;
  /** `booked / calls`, from 0 to 1. */
  bookingRate: number;
}

/** Booking rate per rep over every call (optionally of one source), best rate first. */
export async function bookingRates(client: CompanyData, source?: CallSource): Promise<RepBookings[]> {
  const reps = new Map<string, RepBookings>();
  for await (const call of client.calls.list({ source, page_size: 100 }, { concurrency: 2 })) {
    const rep = reps.get(call.user.id) ?? {
      userId: call.user.id,
      name: call.user.full_name,
      calls: 0,
      booked: 0,
      bookingRate: 0,
    };
    rep.calls++;
    if (call.is_booked) rep.booked++;
    rep.bookingRate = rep.booked / rep.calls;
    reps.set(call.user.id, rep);
  }
  return [...reps.values()].sort((a, b) => b.bookingRate - a.bookingRate || a.name.localeCompare(b.name));
}

/** A newsletter sign-up from your website. */
export interface Signup {
  name: string;
  phone?: string;
  email?: string;
}

/** Adds a sign-up to an outbound-campaign audience; tells whether the contact is new to it. */
export async function addSignup(
  client: CompanyData,
  audienceWebhook: string,
  signup: Signup,
): Promise<{ memberId: string; isNew: boolean }> {
  const [first_name = '', ...rest] = signup.name.trim().split(/\s+/);
  const { data, response } = await client.audiences
    .addMember(audienceWebhook, {
      first_name,
      last_name: rest.join(' '),
      phone: signup.phone,
      email: signup.email,
    })
    .withResponse();
  return { memberId: data.id, isNew: response.status === 201 };
}

/**
 * Forwards a lead with plain `fetch` (code that does not use the SDK, e.g. an edge function); true when the
 * API took it. The test of this one uses msw, which intercepts `fetch`.
 */
export async function forwardLead(
  leadWebhookUrl: string,
  phoneNumber: string,
  name: string,
): Promise<boolean> {
  const response = await fetch(leadWebhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phone_number: phoneNumber, customer_name: name }),
  });
  return response.ok;
}
