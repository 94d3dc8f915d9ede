import type { z } from 'zod';

/**
 * Turns the first validation issue into a one-line message naming the field, e.g.
 * `email: Invalid email address`.
 */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request body.';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
