// A typedoc plugin (typedoc.json's `plugin`): the docs site's search ranks a guide by the words of its title
// and headings, above the symbols named by them.
//
// Why: typedoc 0.28 indexes a project document (with `searchInDocuments`) by its title, as a symbol's name,
// and by its whole text at the weight of a symbol's comment: a heading's words count no more than any other
// word of a long page, and a symbol named by the word searched wins by far (the site's script multiplies the
// score of a result whose name starts with the search by up to 10). A search for "sync" listed `sync()` and
// its types, and not "Keeping a copy up to date", whose heading "The daily sync" is what the reader wants.
//
// How: through typedoc's own `IndexEvent.PREPARE_INDEX` hook, a `headings` field in the search index: a
// document's title and the text of its headings (their inline code as text; the lines of code blocks left
// out), weighed {@link HEADINGS_WEIGHT} times a symbol's name. Only documents have the field, and lunr (the
// index typedoc builds) scales a field's score by its length against the field's average over every row,
// the symbols' empty ones included; that average is taken over the documents instead, as for any field
// all rows have, or a guide's headings would count a hundred times less than one word.
import { createRequire } from 'node:module';
import { IndexEvent } from 'typedoc';

/** lunr as typedoc loads it (its dependency, not ours): the builder typedoc makes is this one's. */
const lunr = createRequire(import.meta.resolve('typedoc'))('lunr');

/** The search field of a document's title and headings. */
export const HEADINGS_FIELD = 'headings';
/**
 * The weight of a document's title and headings in the search, against typedoc's 10 for a name: a guide
 * whose title or headings have the word searched is listed before the symbols named by it.
 */
export const HEADINGS_WEIGHT = 150;

/** @param {import('typedoc').Application} app */
export function load(app) {
  averageOverRowsWithTheField(HEADINGS_FIELD);
  app.renderer.on(IndexEvent.PREPARE_INDEX, (/** @type {import('typedoc').IndexEvent} */ event) => {
    event.searchFieldWeights[HEADINGS_FIELD] = HEADINGS_WEIGHT;
    event.searchResults.forEach((reflection, at) => {
      if (!reflection.isDocument()) return;
      const text = reflection.content.map((part) => part.text).join('');
      event.searchFields[at] = {
        ...event.searchFields[at],
        [HEADINGS_FIELD]: headingsOf(reflection.name, text),
      };
    });
  });
}

/**
 * A document's title and the text of its headings, one a line: a heading's inline code as its text, the
 * lines of fenced code blocks (a shell comment starts with `#` too) left out.
 *
 * @param {string} title
 * @param {string} markdown - the document's text, without its front matter.
 */
export function headingsOf(title, markdown) {
  const prose = markdown.replace(/^(```|~~~)[\s\S]*?^\1[ \t]*$/gm, '');
  const headings = [...prose.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)].map(([, heading = '']) =>
    heading.replace(/`/g, ''),
  );
  return [title, ...headings].join('\n');
}

/**
 * Makes lunr's index builder average the length of `field` over the rows that have it (lunr averages every
 * field over every row). Idempotent; the other fields are averaged as before.
 *
 * @param {string} field
 */
function averageOverRowsWithTheField(field) {
  const builder = /** @type {any} */ (lunr.Builder.prototype);
  if (builder.averagedOverRowsWith?.has(field)) return;
  const calculate = builder.calculateAverageFieldLengths;
  builder.averagedOverRowsWith = new Set([...(builder.averagedOverRowsWith ?? []), field]);
  builder.calculateAverageFieldLengths = function calculateAverageFieldLengths() {
    calculate.call(this);
    const lengths = Object.entries(this.fieldLengths)
      .filter(([ref, length]) => lunr.FieldRef.fromString(ref).fieldName === field && length > 0)
      .map(([, length]) => length);
    if (lengths.length > 0)
      this.averageFieldLength[field] = lengths.reduce((sum, length) => sum + length, 0) / lengths.length;
  };
}
