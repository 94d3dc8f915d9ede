// `npm publish --dry-run` for a package, then the shipping rules on the file list npm would upload.
import { EXTRA_FILES } from './expectations.mjs';
import { run } from './process.mjs';
import { checkTarballFiles } from './tarball-rules.mjs';

/**
 * Runs `npm publish --dry-run --json` (nothing is uploaded) and checks the listed files.
 *
 * @returns {Promise<{ files: string[], size: number, problems: string[] }>} the shipped files, the packed
 *   size in bytes, and one line per offending or missing file (empty when the tarball is right).
 * @param {import('./workspace.mjs').WorkspacePackage} pkg
 */
export async function publishDryRun(pkg) {
  const { stdout } = await run('npm', ['publish', '--dry-run', '--json', '--access', 'public'], {
    cwd: pkg.dir,
  });
  const report = parsePublishReport(stdout, pkg.name);
  const files = report.files.map((file) => file.path);
  const { offending, missing } = checkTarballFiles(files, { extraFiles: EXTRA_FILES[pkg.name] ?? [] });
  const problems = [
    ...offending.map((file) => `ships ${file.path} (${file.reason})`),
    ...missing.map((file) => `does not ship ${file}`),
  ];
  return { files, size: report.size, problems };
}

/**
 * npm 10 prints the report itself; npm 11 keys it by package name.
 *
 * @param {string} stdout
 * @param {string} name
 * @returns {{ files: { path: string }[], size: number }}
 */
function parsePublishReport(stdout, name) {
  let json;
  try {
    json = JSON.parse(stdout);
  } catch {
    throw new Error(`npm publish --dry-run --json printed no JSON for ${name}:\n${stdout}`);
  }
  const report = Array.isArray(json.files) ? json : json[name];
  if (!Array.isArray(report?.files)) {
    throw new Error(`npm publish --dry-run --json listed no files for ${name}:\n${stdout.slice(0, 2000)}`);
  }
  return report;
}
