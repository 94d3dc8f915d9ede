// `npm run build:mock-binary`: the mock server's command as one executable file for this platform, which runs
// without Node or npm installed (Node's single-executable applications), with its checksum beside it:
//
//   node scripts/sea/build-mock-binary.mjs [--root <dir>]
//
// writes release-artefacts/company-data-mock-<version>-<platform>-<arch>[.exe] and its `.sha256` under the
// repository (or under `--root`, a release copy of it). Build it on each platform it is for: docs/releasing.md.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildMockBinary } from './build.mjs';

const { values } = parseArgs({ options: { root: { type: 'string' } } });
const root = path.resolve(values.root ?? path.join(import.meta.dirname, '..', '..'));
const started = performance.now();
const built = await buildMockBinary(root);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const mb = (built.bytes / 1e6).toFixed(1);
console.log(
  `${path.relative(process.cwd(), built.binary)}: ${mb} MB, mock server ${built.version}, in ${seconds} s`,
);
console.log(`${path.relative(process.cwd(), built.checksum)}: sha256 ${built.sha256}`);
