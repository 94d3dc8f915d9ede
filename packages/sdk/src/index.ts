/**
 * The typed client of the Company Data API: `new CompanyData()`, its resources, errors and options. Every
 * call, attempt, page, list iteration and sync is published on Node's tracing channels
 * ({@link TRACING_CHANNELS}) for any APM to subscribe to; OpenTelemetry traces and metrics are in the opt-in
 * `@company-data/sdk/opentelemetry`.
 *
 * @module @company-data/sdk
 * @mergeModuleWith <project>
 */
export type {
  AudienceMember,
  AudienceMemberInput,
  AudienceMemberStatus,
  Call,
  CallListQuery,
  CallSource,
  CallTranscript,
  CallTranscriptSegment,
  CustomField,
  LeadInput,
  LeadReceived,
  ListQuery,
  OpenEnum,
  Ordering,
  Pagination,
  Recording,
  RecordingDetail,
  RecordingTranscript,
  RecordingTranscriptSegment,
  Team,
  TranscriptWord,
  User,
  UserListQuery,
  UserRef,
} from '@company-data/contract';
export { CompanyData } from './client.js';
export { ENVIRONMENT_VARIABLES } from './core/environment.js';
export {
  AuthenticationError,
  type AuthenticationFailure,
  BadRequestError,
  ClientClosedError,
  CompanyDataError,
  type CompanyDataErrorInit,
  ConfigurationError,
  type ConfigurationErrorCode,
  ConnectionError,
  FixedCodeError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestAbortedError,
  type ResponseHeaders,
  ServerError,
  TimeoutError,
  ValidationError,
  type ValidationIssue,
} from './core/errors.js';
export { extraField, type UndeclaredField } from './core/extra-field.js';
export type { Logger, LogLevel } from './core/logger-interface.js';
export { type ResourceName, SDK_METHODS } from './core/methods.js';
export {
  type ClientOptions,
  type CountChangeEvent,
  type DerivedClientOptions,
  type FetchLike,
  type HedgeOptions,
  type HedgeOutcome,
  type ListOptions,
  MAX_CONCURRENCY,
  type RateLimitEvent,
  type RequestOptions,
  type RetryEvent,
  type RetryHook,
  type Sleep,
  type WebhookOptions,
} from './core/options.js';
export {
  DEFAULT_QUOTA_MARGIN_MS,
  type QuotaSlots,
  type RateGateContext,
  type RateGateLike,
  type RateQuota,
} from './core/rate-gate-interface.js';
export type { ResponseInfo, WithResponse } from './core/response-info.js';
export type {
  SyncBatch,
  SyncChange,
  SyncOptions,
  SyncRequestOptions,
  SyncSpan,
} from './core/sync-changes.js';
export {
  type AttemptContext,
  type CallContext,
  type PageContext,
  type SyncContext,
  TRACING_CHANNELS,
  type TracedError,
  type TracingContext,
  type TracingOutcome,
  type WalkContext,
} from './core/telemetry/tracing-channels.js';
export { SDK_VERSION } from './core/version.js';
export { Page, PagePromise } from './pagination/page-promise.js';
export { APIPromise } from './request/api-promise.js';
export { RateGate, type RateGateOptions, SlidingWindowSlots } from './request/rate-gate.js';
export { Audiences } from './resources/audiences.js';
export { Calls } from './resources/calls.js';
export { Leads } from './resources/leads.js';
export { Recordings } from './resources/recordings.js';
export { Teams } from './resources/teams.js';
export { Users } from './resources/users.js';
export {
  type ConnectionSetting,
  type ConnectionSettings,
  readConnectionSettings,
  type SettingsSource,
} from './settings.js';
export { SyncRun } from './sync/run.js';
