// The text the docs site's search weighs as a guide's title and headings (the ranking itself is checked in a
// browser by `npm run check:docs-site`: "sync", "company-data-mock" and "Retry-After" list their guides first).
import { describe, expect, it } from 'vitest';
import { headingsOf } from './search-headings-plugin.mjs';

describe('headingsOf', () => {
  it("is the title and every heading's text, inline code as text, without the lines of code blocks", () => {
    const markdown = [
      '# Errors, retries and rate limits',
      'Text with sync in it is not a heading.',
      '## Rate limits (429 and `Retry-After`)',
      '```sh',
      '# a shell comment, not a heading',
      'npx company-data-mock',
      '```',
      '~~~',
      '## in a tilde block',
      '~~~',
      '### The daily sync, with a checkpoint file ##',
      '#not-a-heading',
    ].join('\n');
    expect(headingsOf('Errors, retries and rate limits', markdown)).toBe(
      [
        'Errors, retries and rate limits',
        'Errors, retries and rate limits',
        'Rate limits (429 and Retry-After)',
        'The daily sync, with a checkpoint file',
      ].join('\n'),
    );
  });
});
