import { type OperationId, RESPONSE_CHECKS } from '@company-data/contract/runtime';
import { toValidationIssues } from '../core/checks/issues.js';
import { endpointWithSchemas, loadZod } from '../core/checks/zod-on-demand.js';
import { InvalidResponseError } from '../core/errors.js';
import type { ResponseInfo, WithResponse } from '../core/response-info.js';
import { type AnsweredCall, type CallRequest, describeCall } from './call-request.js';

/**
 * Reads a success response: JSON, checked against the endpoint's schema unless validation is off. The
 * compiled check decides (a few µs for a page), and a body it accepts is returned as it is, with no
 * promise: a call's result is one step nearer. zod, the source of truth, is loaded only to describe a body
 * the check refused.
 *
 * @param validate - whether to check the body (the client's `validate` option).
 * @returns the result, or (for a body the check refused) a promise that rejects with the description.
 * @throws InvalidResponseError when the body is not JSON or does not match the schema.
 */
export function readResponse(
  answered: AnsweredCall,
  validate: boolean,
): WithResponse<unknown> | Promise<WithResponse<unknown>> {
  const { call, response } = answered;
  const info: ResponseInfo = { status: response.status, headers: response.headers };
  if (answered.hedge !== undefined) info.hedge = answered.hedge;
  let json: unknown;
  try {
    json = JSON.parse(response.body);
  } catch (cause) {
    throw new InvalidResponseError(`Response body is not JSON (${describeCall(call)})`, [], {
      ...info,
      body: response.body,
      cause,
    });
  }
  if (!validate || RESPONSE_CHECKS[call.endpoint.operationId as OperationId]?.(json)) {
    return { data: json, response: info };
  }
  return describeRefusal(call, json, info);
}

/** A body the compiled check refused, as zod describes it (zod may yet accept it: then its output). */
async function describeRefusal(
  call: CallRequest,
  json: unknown,
  info: ResponseInfo,
): Promise<WithResponse<unknown>> {
  const [{ response: schema }, { z }] = await Promise.all([
    endpointWithSchemas(call.endpoint.operationId as OperationId),
    loadZod(),
  ]);
  const result = schema.safeParse(json);
  if (!result.success) {
    throw new InvalidResponseError(
      `Response does not match the schema (${describeCall(call)}): ${z.prettifyError(result.error)}`,
      toValidationIssues(result.error.issues),
      { ...info, body: json },
    );
  }
  return { data: result.data, response: info };
}
