/**
 * The mock server: create it in-process, start it on a port, control it from tests. Its msw handlers are
 * in `@company-data/mock-server/msw`, its vitest matchers in `@company-data/mock-server/vitest`.
 *
 * @module @company-data/mock-server
 * @mergeModuleWith <project>
 */
export { type ActivityOptions, DEFAULT_ACTIVITY, type ResolvedActivity } from './data/activity/options.js';
export {
  type ClockMode,
  DEFAULT_NOW,
  MockClock,
  type MockClockOptions,
  type TimeInput,
  toEpochMs,
} from './data/clock.js';
export type { MockKeys, MockTokens } from './data/fake/seeded-store.js';
export { FixtureError, type FixtureIssue } from './data/fixture/error.js';
export { type Fixture, FixtureSchema, fixtureJsonSchema } from './data/fixture/schema.js';
export type { JournalPage, JournalReader, JournalStats } from './data/journal/bounded-journal.js';
export { DEFAULT_JOURNAL_LIMIT, type JournalReadOptions } from './data/journal/limits.js';
export { Prng } from './data/random/prng.js';
export {
  CHANGE_JOURNAL_LIMIT,
  type DataChange,
  type DataChangeKind,
  type DataChangeOrigin,
} from './data/record-controls/change-journal.js';
export type { RecordControls, RecordOptions, UpdateFields } from './data/record-controls/controls.js';
export type { CreateFields } from './data/record-controls/editor.js';
export { RecordNotFoundError } from './data/record-controls/errors.js';
export { MUTABLE_FIELDS, type RecordByResource, type RecordOf } from './data/record-controls/fields.js';
export type { Conversation, Lead } from './data/store/leads.js';
export { type KeyOptions, LIVE_KEY_PREFIX } from './data/store/mock-store.js';
export {
  DEFAULT_QUOTA,
  DEFAULT_THROTTLE,
  type Quota,
  type QuotaInput,
  type QuotaReadout,
  type QuotaWindowInfo,
  THROTTLED_KEY_QUOTA,
  type ThrottleConfig,
} from './data/store/quota.js';
export type {
  ApiKeyInfo,
  AudienceInfo,
  LeadSourceInfo,
  MockWebhooks,
  WebhookInfo,
} from './inspect/keys-and-webhooks.js';
export type { RecordCounts } from './inspect/record-counts.js';
export {
  formatRequestJson,
  formatRequestText,
  type RequestEvent,
  type RequestOutcome,
  redactTokens,
} from './inspect/request-log.js';
export type { DifferenceField, RequestDifference } from './inspect/verify/match.js';
export type { NearMiss } from './inspect/verify/near-miss.js';
export {
  type RequestPattern,
  type TimesPattern,
  type TimesRange,
  type ValueMatcher,
  VerifyPatternError,
} from './inspect/verify/pattern.js';
export { VerificationError, type VerifyResult } from './inspect/verify/recorded-requests.js';
export {
  type OnUnmatchedRequest,
  UNMATCHED_LIMIT,
  type UnmatchedRequest,
  UnmatchedRequestError,
} from './inspect/verify/unmatched.js';
export type { AbortSource, ClientAbort, EngineResult } from './serve/engine/engine.js';
export type { BodyDelivery } from './serve/engine/fault-answers.js';
export {
  type ArmedFaultInfo,
  DEFAULT_FAULT_MIX,
  type Drip,
  type FaultAction,
  type FaultMixEntry,
  type FaultRateSpec,
  type FaultRates,
  type FaultSpec,
} from './serve/engine/faults.js';
export type { LatencyDistribution, LatencyProfile, LatencyRule } from './serve/engine/latency.js';
export type { JournalEntry, JournalFault } from './serve/engine/request-journal.js';
export type { RouteMatch } from './serve/engine/route-match.js';
export { ADMIN_PREFIX } from './serve/http/reserved-paths.js';
export type { JournalOutcome, MockRequest, MockResponse, StreamedBody } from './serve/http/types.js';
export type { UnmatchedReason } from './serve/http/unmatched.js';
export { OPENAPI_PATH } from './serve/openapi.js';
export type { MemoryUsage, ServerSummary } from './server/admin/summary.js';
export {
  createMockServer,
  type StartMockServerOptions,
  startMockServer,
} from './server/create-mock-server.js';
export type { MockJournals, MockServer, MockSession, MockSessions } from './server/mock-server.js';
export {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_ORIGIN,
  type MockServerOptions,
  type MockSizes,
} from './server/options.js';
export {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_ID,
  DEFAULT_SESSION_IDLE_MS,
  type MockSessionOptions,
  type SessionInfo,
  SessionRefusedError,
} from './server/sessions/session-rules.js';
export { MockStateError } from './server/state/error.js';
export { type MockState, MockStateSchema } from './server/state/schema.js';
export { MOCK_SERVER_VERSION } from './server/version.js';
