// A typedoc plugin (typedoc.json's `plugin`): a heading's inline code stays in the page's outline ("On this
// page") and in the heading's anchor.
//
// Why: typedoc 0.28 takes a heading's outline entry and anchor from the plain text tokens of the heading's
// markdown only, so a code span drops out of both: "Part of a list: `page` and `lastPage`" is listed as
// "Part of a list:  and", under the anchor #part-of-a-list-and. This plugin adds a markdown-it rule, through
// typedoc's own `markdownItLoader` hook, that writes each code span of a heading as the same `<code>` markup
// around a plain text token: the heading renders exactly as before, and typedoc's outline and anchor now read
// the code's text ("Part of a list: page and lastPage", #part-of-a-list-page-and-lastpage, the anchor GitHub
// gives the same heading).
import { Application } from 'typedoc';

/** @param {import('typedoc').Application} app */
export function load(app) {
  // After the options are read (typedoc resets them after loading plugins), so a configured loader is kept.
  app.on(Application.EVENT_BOOTSTRAP_END, () => {
    const configured = app.options.getValue('markdownItLoader');
    app.options.setValue('markdownItLoader', (parser) => {
      configured(parser);
      parser.core.ruler.push('heading_code_as_text', headingCodeAsText);
    });
  });
}

/**
 * The markdown-it core rule: in every heading, a `code_inline` token becomes `<code>`, a text token, and
 * `</code>`. The text token is escaped when rendered, as the code span's content is.
 *
 * @param {{ tokens: any[], Token: new (type: string, tag: string, nesting: number) => any }} state
 */
export function headingCodeAsText(state) {
  const token = (/** @type {string} */ type, /** @type {string} */ content) =>
    Object.assign(new state.Token(type, '', 0), { content });
  state.tokens.forEach((heading, index) => {
    const inline = state.tokens[index + 1];
    if (heading.type !== 'heading_open' || inline?.type !== 'inline' || !inline.children) return;
    inline.children = inline.children.flatMap((/** @type {any} */ child) =>
      child.type === 'code_inline'
        ? [token('html_inline', '<code>'), token('text', child.content), token('html_inline', '</code>')]
        : [child],
    );
  });
}
