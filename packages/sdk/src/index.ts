// The public API of @company-data/sdk; its README heads the package's page on the docs site.
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
export { APIPromise, type ResponseInfo, type WithResponse } from './core/api-promise.js';
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
export type { Logger, LogLevel } from './core/logger.js';
export { type ResourceName, SDK_METHODS } from './core/methods.js';
export type {
  ClientOptions,
  CountChangeEvent,
  DerivedClientOptions,
  FetchLike,
  HedgeOptions,
  HedgeOutcome,
  ListOptions,
  RateLimitEvent,
  RequestOptions,
  RetryEvent,
  RetryHook,
  Sleep,
  WebhookOptions,
} from './core/options.js';
export { Page, PagePromise } from './core/pagination.js';
export {
  DEFAULT_QUOTA_MARGIN_MS,
  type QuotaSlots,
  RateGate,
  type RateGateContext,
  type RateGateLike,
  type RateGateOptions,
  type RateQuota,
  SlidingWindowSlots,
} from './core/rate-gate.js';
export {
  type ConnectionSetting,
  type ConnectionSettings,
  ENVIRONMENT_VARIABLES,
  readConnectionSettings,
  type SettingsSource,
} from './core/settings.js';
export type { SyncBatch, SyncChange, SyncOptions, SyncRequestOptions } from './core/sync-changes.js';
export { SyncRun } from './core/sync-run.js';
export { SDK_VERSION } from './core/version.js';
export { MAX_CONCURRENCY } from './internal/page-stream.js';
export { Audiences } from './resources/audiences.js';
export { Calls } from './resources/calls.js';
export { Leads } from './resources/leads.js';
export { Recordings } from './resources/recordings.js';
export { Teams } from './resources/teams.js';
export { Users } from './resources/users.js';
