// The JSON files given on the command line (--fixture, --state): read with errors a person can act on.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { findNodeAtLocation, type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';
import { FixtureError } from '../../data/fixture/error.js';
import type { ParsedFixture } from '../../data/fixture/schema.js';
import { parseFixture } from '../../data/fixture/validate.js';

/** How many schema problems a message lists before it says how many more there are. */
export const MAX_LISTED_ISSUES = 20;

const FORMAT_HINT =
  'The fixture format is in the mock server guide ("Mock server fixtures"); `company-data-mock --fixture-schema` prints its JSON Schema for your editor.';

/**
 * Reads and validates a fixture file, with errors a person can act on: the absolute path, the line
 * and column of a syntax error or of each bad field (as `file:line:column`, which editors open),
 * every schema problem up to {@link MAX_LISTED_ISSUES}, and what to do next.
 *
 * @param path - the path as given on the command line.
 * @param cwd - what a relative path is relative to.
 * @returns the validated fixture.
 * @throws Error with that message when the file is missing, unreadable, not JSON or not a valid fixture.
 */
export async function readFixtureFile(path: string, cwd: string): Promise<ParsedFixture> {
  const { absolute, text, value } = await readJsonFile(path, cwd, FIXTURE_FILE);
  try {
    return parseFixture(value);
  } catch (error) {
    if (!(error instanceof FixtureError)) throw error;
    throw new Error(schemaErrors(absolute, text, error));
  }
}

/** What a JSON file given to the command is, in its messages. */
interface JsonFileKind {
  /** `fixture`, `state`. */
  readonly noun: string;
  /** What leaving the flag out does, for the message of a missing file. */
  readonly without: string;
}

const FIXTURE_FILE: JsonFileKind = {
  noun: 'fixture',
  without: 'leave out --fixture to serve generated data',
};
const STATE_FILE: JsonFileKind = { noun: 'state', without: 'leave out --state to start from the options' };

/**
 * Reads a JSON file given on the command line, with errors a person can act on (a missing or unreadable
 * file, a syntax error at `file:line:column`).
 *
 * @returns its absolute path, its text and its value.
 * @throws Error with that message.
 */
async function readJsonFile(
  path: string,
  cwd: string,
  kind: JsonFileKind,
): Promise<{ absolute: string; text: string; value: unknown }> {
  const absolute = resolve(cwd, path);
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (error) {
    throw new Error(unreadable(absolute, path, cwd, error as NodeJS.ErrnoException, kind));
  }
  try {
    return { absolute, text, value: JSON.parse(text) };
  } catch (error) {
    throw new Error(syntaxError(absolute, text, error as Error));
  }
}

/**
 * Reads a saved state (`GET /__admin/state`, `saveState()`): the server checks it when it starts, and its
 * message names the field (`Invalid mock state at clock.nowMs: …`), here with the file's line and column.
 *
 * @param path - the path as given on the command line.
 * @param cwd - what a relative path is relative to.
 * @returns the state, and how to say where a field of it is.
 * @throws Error when the file is missing, unreadable or not JSON.
 */
export async function readStateFile(
  path: string,
  cwd: string,
): Promise<{ state: unknown; where: (field: string) => string }> {
  const { absolute, text, value } = await readJsonFile(path, cwd, STATE_FILE);
  const where = (field: string) => {
    const root = parseTree(text);
    const node = root === undefined ? undefined : deepestNode(root, segmentsOf(field));
    return node === undefined ? absolute : `${absolute}:${lineColumn(text, node.offset)}`;
  };
  return { state: value, where };
}

function unreadable(
  absolute: string,
  given: string,
  cwd: string,
  error: NodeJS.ErrnoException,
  { noun, without }: JsonFileKind,
): string {
  const title = `${noun[0]?.toUpperCase()}${noun.slice(1)}`;
  switch (error.code) {
    case 'ENOENT':
      return `${title} file not found: ${absolute}${given === absolute ? '' : ` ("${given}" from ${cwd})`}. Check the path, or ${without}.`;
    case 'EISDIR':
      return `The ${noun} path is a directory: ${absolute}. Give the JSON file inside it.`;
    case 'EACCES':
    case 'EPERM':
      return `Cannot read the ${noun} file ${absolute}: permission denied. Make it readable (chmod +r) or copy it somewhere readable.`;
    default:
      return `Cannot read the ${noun} file ${absolute}: ${error.message}`;
  }
}

function syntaxError(absolute: string, text: string, error: Error): string {
  // JSON.parse is the judge of validity; the tolerant parser only says where the first problem is.
  const errors: ParseError[] = [];
  parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  const first = errors[0];
  const offset = first?.offset ?? positionIn(error.message) ?? text.length;
  const what = first ? describeParseError(first) : error.message;
  return `${absolute}:${lineColumn(text, offset)}: not valid JSON: ${what}. Fix the file (a JSON linter or your editor shows the spot), then start again.`;
}

function schemaErrors(absolute: string, text: string, error: FixtureError): string {
  const root = parseTree(text);
  const lines = error.issues.slice(0, MAX_LISTED_ISSUES).map((issue) => {
    const node = root === undefined ? undefined : deepestNode(root, segmentsOf(issue.path));
    const where = node === undefined ? absolute : `${absolute}:${lineColumn(text, node.offset)}`;
    return `  ${where}  ${issue.path || '(root)'}: ${issue.message}`;
  });
  const more = error.issues.length - MAX_LISTED_ISSUES;
  if (more > 0) lines.push(`  … and ${more} more`);
  const count = error.issues.length === 1 ? '1 problem' : `${error.issues.length} problems`;
  return `The fixture ${absolute} is not valid (${count}; nothing was loaded):\n${lines.join('\n')}\n${FORMAT_HINT}`;
}

function describeParseError(error: ParseError): string {
  const code = printParseErrorCode(error.error);
  // 'CommaExpected' → 'comma expected'
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

function positionIn(message: string): number | undefined {
  const match = /position (\d+)/.exec(message);
  return match ? Number(match[1]) : undefined;
}

/** `line:column`, both counted from 1. */
function lineColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (
    let index = text.indexOf('\n');
    index !== -1 && index < offset;
    index = text.indexOf('\n', index + 1)
  ) {
    line++;
    lineStart = index + 1;
  }
  return `${line}:${offset - lineStart + 1}`;
}

/** `companies[0].users[2].email` → `['companies', 0, 'users', 2, 'email']`. */
function segmentsOf(path: string): (string | number)[] {
  const segments: (string | number)[] = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    segments.push(match[2] === undefined ? (match[1] as string) : Number(match[2]));
  }
  return segments;
}

/** The node at the path, or at its longest prefix that exists (a missing field points at its object). */
function deepestNode(root: Node, segments: (string | number)[]): Node | undefined {
  for (let length = segments.length; length >= 0; length--) {
    const node = findNodeAtLocation(root, segments.slice(0, length));
    if (node !== undefined) return node;
  }
  return undefined;
}
