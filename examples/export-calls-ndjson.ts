// Exports every call as NDJSON (one JSON object per line) to a file, or to stdout, with a progress bar on
// stderr. Pages are fetched four at a time ahead of the writer, yet written strictly in order.
//
//   npx tsx examples/export-calls-ndjson.ts calls.ndjson      # or no argument: to stdout
//   npx tsx examples/export-calls-ndjson.ts --concurrency 8 > calls.ndjson
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { CompanyData, CompanyDataError } from '@company-data/sdk';

/** A one-line progress bar: redrawn in place on a terminal, one line per update otherwise (CI logs). */
class ProgressBar {
  readonly #stream: NodeJS.WriteStream;
  constructor(stream: NodeJS.WriteStream) {
    this.#stream = stream;
  }
  update(done: number, total: number): void {
    const ratio = total > 0 ? Math.min(1, done / total) : 1;
    const width = 30;
    const filled = Math.round(ratio * width);
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} calls ${Math.round(ratio * 100)}%`;
    if (this.#stream.isTTY) this.#stream.write(`\r${bar}`);
    else this.#stream.write(`${bar}\n`);
  }
  end(): void {
    if (this.#stream.isTTY) this.#stream.write('\n');
  }
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { concurrency: { type: 'string', default: '4' } },
});
const [file] = positionals;
const output: Writable = file ? createWriteStream(file) : process.stdout;
// `… | head` closes the pipe early: stop quietly instead of crashing on EPIPE.
output.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
});

const client = new CompanyData();
const progress = new ProgressBar(process.stderr);

try {
  const calls = client.calls.list(
    { page_size: 100 },
    {
      concurrency: Number(values.concurrency),
      // Calls created or deleted during the export shift the pages; the SDK never yields one twice but says so.
      onCountChange: ({ previous, current }) =>
        console.error(`\nThe number of calls changed: ${previous} → ${current}`),
    },
  );
  let written = 0;
  for await (const page of calls.pages()) {
    const lines = page.data.map((call) => `${JSON.stringify(call)}\n`).join('');
    // Respect backpressure: at most one page waits in memory while the file or pipe catches up.
    if (!output.write(lines)) await once(output, 'drain');
    written += page.data.length;
    progress.update(written, page.pagination.count);
  }
  progress.end();
  if (file) {
    output.end();
    await finished(output);
  }
  console.error(`Exported ${written} calls to ${file ?? 'stdout'}`);
} catch (error) {
  progress.end();
  if (!(error instanceof CompanyDataError)) throw error;
  console.error(`Export failed: ${error.message}`);
  process.exitCode = 1;
} finally {
  await client.close();
}
