import type { z } from 'zod';
import type { ValidationIssue } from '../errors.js';

/**
 * The SDK's issues for zod's (of a failed `safeParse`): the one place zod's issue type is read, so that no
 * public type names it. An `unrecognized_keys` issue becomes one per unknown name, its path ending with it.
 */
export function toValidationIssues(issues: readonly z.core.$ZodIssue[]): ValidationIssue[] {
  return issues.flatMap((issue): ValidationIssue[] => {
    const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
    if (issue.code !== 'unrecognized_keys') return [{ path, message: issue.message, code: issue.code }];
    return issue.keys.map((key) => ({ path: [...path, key], message: issue.message, code: issue.code }));
  });
}
