// The guides, in the order the docs site lists them: the project documents of typedoc.json whose front
// matter puts them in the "Guides" group (the maintainers' pages are in another group).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { codeBlocks, frontMatter } from './markdown.mjs';

export const GUIDES_GROUP = 'Guides';

/**
 * A guide: its file (relative to the root), name, text and code blocks.
 *
 * @typedef {{ file: string, name: string, text: string, blocks: import('./markdown.mjs').CodeBlock[] }} Guide
 */

/**
 * @param {string} root - the repository root.
 * @returns {Guide[]}
 */
export function readGuides(root) {
  /** @type {{ projectDocuments: string[] }} */
  const { projectDocuments } = JSON.parse(readFileSync(path.join(root, 'typedoc.json'), 'utf8'));
  return projectDocuments
    .map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }))
    .filter(({ text }) => frontMatter(text).group === GUIDES_GROUP)
    .map(({ file, text }) => ({ file, name: path.basename(file, '.md'), text, blocks: codeBlocks(text) }));
}
