/**
 * Stateful, spec-exact in-memory reference server for the Company Data API: generated or fixture
 * data, every endpoint and rule of the spec, a controllable clock and test controls, reachable
 * in-process (undici dispatcher, msw handlers) or over a real node:http listener.
 *
 * @packageDocumentation
 */
export { ADMIN_PREFIX } from './admin/prefix.js';
export { DEFAULT_NOW, MockClock, type TimeInput, toEpochMs } from './clock.js';
export { FixtureError, type FixtureIssue } from './fixture/error.js';
export { type Fixture, FixtureSchema, fixtureJsonSchema } from './fixture/schema.js';
export type { MockKeys, MockTokens } from './generate/store.js';
export type { FaultSpec } from './http/faults.js';
export type { JournalEntry } from './http/journal.js';
export { DEFAULT_THROTTLE, type ThrottleConfig } from './http/throttle.js';
export type { JournalOutcome, MockRequest, MockResponse } from './http/types.js';
export { DEFAULT_MAX_BODY_BYTES, DEFAULT_ORIGIN, type MockServerOptions, type MockSizes } from './options.js';
export {
  createMockServer,
  type MockServer,
  type StartMockServerOptions,
  startMockServer,
} from './server.js';
export type { Conversation, Lead } from './store/leads.js';
export { type KeyOptions, LIVE_KEY_PREFIX } from './store/store.js';
