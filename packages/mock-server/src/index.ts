/**
 * The mock server: create it in-process, start it on a port, control it from tests. Its msw handlers are
 * in `@company-data/mock-server/msw`, its vitest matchers in `@company-data/mock-server/vitest`.
 *
 * @module @company-data/mock-server
 * @mergeModuleWith <project>
 */
export { type ActivityOptions, DEFAULT_ACTIVITY, type ResolvedActivity } from './activity/options.js';
export type { MemoryUsage, ServerSummary } from './admin/summary.js';
export {
  type ClockMode,
  DEFAULT_NOW,
  MockClock,
  type MockClockOptions,
  type TimeInput,
  toEpochMs,
} from './clock.js';
export { createMockServer, type StartMockServerOptions, startMockServer } from './create-mock-server.js';
export type { AbortSource, BodyDelivery, EngineResult } from './engine/engine.js';
export {
  DEFAULT_FAULT_MIX,
  type Drip,
  type FaultAction,
  type FaultMixEntry,
  type FaultRateSpec,
  type FaultRates,
  type FaultSpec,
} from './engine/faults.js';
export type { LatencyDistribution, LatencyProfile, LatencyRule } from './engine/latency.js';
export type { JournalEntry, JournalFault } from './engine/request-journal.js';
export type { RouteMatch } from './engine/route-match.js';
export type { MockKeys, MockTokens } from './fake/seeded-store.js';
export { FixtureError, type FixtureIssue } from './fixture/error.js';
export { type Fixture, FixtureSchema, fixtureJsonSchema } from './fixture/schema.js';
export { ADMIN_PREFIX } from './http/reserved-paths.js';
export type { JournalOutcome, MockRequest, MockResponse } from './http/types.js';
export type { UnmatchedReason } from './http/unmatched.js';
export type {
  ApiKeyInfo,
  AudienceInfo,
  LeadSourceInfo,
  MockWebhooks,
  RecordCounts,
  WebhookInfo,
} from './inventory.js';
export type { JournalPage, JournalReader, JournalStats } from './journal/bounded-journal.js';
export { DEFAULT_JOURNAL_LIMIT, type JournalReadOptions } from './journal/rules.js';
export type { MockJournals, MockServer, MockSession, MockSessions } from './mock-server.js';
export { OPENAPI_PATH } from './openapi.js';
export { DEFAULT_MAX_BODY_BYTES, DEFAULT_ORIGIN, type MockServerOptions, type MockSizes } from './options.js';
export { Prng } from './random/prng.js';
export {
  CHANGE_JOURNAL_LIMIT,
  type DataChange,
  type DataChangeKind,
  type DataChangeOrigin,
} from './record-controls/change-journal.js';
export type { RecordControls, RecordOptions, UpdateFields } from './record-controls/controls.js';
export type { CreateFields } from './record-controls/editor.js';
export { RecordNotFoundError } from './record-controls/errors.js';
export { MUTABLE_FIELDS, type RecordOf } from './record-controls/rules.js';
export {
  formatRequestJson,
  formatRequestText,
  type RequestEvent,
  type RequestOutcome,
  redactTokens,
} from './request-log.js';
export {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_ID,
  DEFAULT_SESSION_IDLE_MS,
  type MockSessionOptions,
  type SessionInfo,
  SessionRefusedError,
} from './sessions/session-rules.js';
export { MockStateError } from './state/error.js';
export { type MockState, MockStateSchema } from './state/schema.js';
export type { Conversation, Lead } from './store/leads.js';
export { type KeyOptions, LIVE_KEY_PREFIX } from './store/mock-store.js';
export {
  DEFAULT_QUOTA,
  DEFAULT_THROTTLE,
  type Quota,
  type QuotaInput,
  THROTTLED_KEY_QUOTA,
  type ThrottleConfig,
} from './store/quota.js';
export type { DifferenceField, RequestDifference } from './verify/match.js';
export type { NearMiss } from './verify/near-miss.js';
export {
  type RequestPattern,
  type TimesPattern,
  type TimesRange,
  type ValueMatcher,
  VerifyPatternError,
} from './verify/pattern.js';
export {
  type OnUnmatchedRequest,
  UNMATCHED_LIMIT,
  type UnmatchedRequest,
  UnmatchedRequestError,
} from './verify/unmatched.js';
export { VerificationError, type VerifyResult } from './verify/verify.js';
export { MOCK_SERVER_VERSION } from './version.js';
