/** Renders the results of a run as Markdown (for people) and JSON (for tools and later comparison). */
import type { Environment } from './env.js';
import type { Check, FigureResult, Measurement } from './result.js';
import { round } from './stats.js';

/** Everything one run produced. */
export interface RunResult {
  /** Machine and package facts. */
  environment: Environment;
  /** `full` for committed results, `quick` for trying the harness. */
  mode: 'full' | 'quick';
  /** Wall time of the whole run in milliseconds. */
  durationMs: number;
  /** Each figure's result. */
  figures: FigureResult[];
}

function fmt(value: number): string {
  const r = round(value, 3);
  return Math.abs(r) >= 1000 ? Math.round(r).toLocaleString('en-US') : String(r);
}

function verdict(check: Check): string {
  if (check.pass === null) return 'not measured';
  return check.pass ? 'pass' : '**MISS**';
}

function checkValue(check: Check): string {
  if (check.value === null) return '—';
  if (check.unit === 'bool') return check.value ? 'yes' : 'no';
  return `${fmt(check.value)}${check.unit === '×' ? '×' : ` ${check.unit}`}`;
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function measurementRow(m: Measurement): string {
  const extra = m.extra
    ? Object.entries(m.extra)
        .map(([k, v]) => `${k} ${typeof v === 'number' ? fmt(v) : v}`)
        .join(', ')
    : '';
  return `| ${cell(m.label)} | ${fmt(m.median)} | ${m.unit} | ${m.runs.map(fmt).join(', ')} | ${cell(extra)} |`;
}

/** Says which figures ran against the built packages and which against the TypeScript sources. */
function packagesLines(figures: readonly FigureResult[]): string[] {
  const titles = (kind: FigureResult['packages']) =>
    figures
      .filter((f) => f.packages === kind)
      .map((f) => f.title)
      .join('; ');
  const built = titles('built');
  const sources = titles('sources');
  return [
    ...(built
      ? [
          `Run against the workspace packages' built \`dist\` files, as users install them (\`npm run bench\` builds first): ${built}.`,
        ]
      : []),
    ...(sources
      ? [
          `Run against the workspace packages' TypeScript sources (loaded through tsx, as the tests do): ${sources}.`,
        ]
      : []),
  ];
}

/** The Markdown results file. */
export function toMarkdown(run: RunResult): string {
  const env = run.environment;
  const lines: string[] = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` (${run.mode} mode) on ${env.date}, in ${fmt(run.durationMs / 1000)} s.`,
    'Each figure is the **median** of several runs interleaved with its baseline (A, B, A, B…), so machine',
    'noise hits both sides; ratios are what to compare, absolute numbers depend on the (shared) machine.',
    '',
    '| Machine | |',
    '|---|---|',
    `| Node | ${env.node} |`,
    `| CPU | ${cell(env.cpuModel)}, ${env.cores} cores |`,
    `| Memory | ${env.memoryGiB} GiB |`,
    `| OS | ${cell(env.platform)} |`,
    `| Commit | ${env.commit} |`,
    ...Object.entries(env.packages).map(([name, version]) => `| ${cell(name)} | ${version} |`),
    '',
    ...packagesLines(run.figures),
    '',
    '## Targets',
    '',
    '| Figure | Check | Value | Target | Result |',
    '|---|---|---|---|---|',
  ];
  for (const figure of run.figures) {
    if (figure.checks.length === 0 && figure.status === 'not-measured') {
      lines.push(`| ${cell(figure.title)} | — | — | — | not measured: ${cell(figure.reasons.join('; '))} |`);
    } else if (figure.checks.length === 0) {
      for (const m of figure.measurements) {
        lines.push(
          `| ${cell(figure.title)} | ${cell(m.label)} | ${fmt(m.median)} ${m.unit} | no target | — |`,
        );
      }
    }
    for (const check of figure.checks) {
      const note =
        check.pass === null && check.note ? `: ${cell(check.note.replace(/^not measured: /, ''))}` : '';
      lines.push(
        `| ${cell(figure.title)} | ${cell(check.label)} | ${checkValue(check)} | ${check.target} | ${verdict(check)}${note} |`,
      );
    }
  }
  for (const figure of run.figures) {
    lines.push('', `## ${figure.title}`, '');
    if (figure.method) lines.push(figure.method, '');
    const load = figure.loadAverage
      ? ` Machine load average (1 min, ${run.environment.cores} cores) ${figure.loadAverage.start.toFixed(1)} at start, ${figure.loadAverage.end.toFixed(1)} at end.`
      : '';
    const code = figure.packages
      ? ` Workspace packages: ${figure.packages === 'built' ? 'built dist' : 'TypeScript sources'}.`
      : '';
    lines.push(`Status: ${figure.status} (${fmt(figure.durationMs / 1000)} s).${code}${load}`);
    for (const reason of figure.reasons) lines.push(`- Not measured: ${reason}`);
    if (figure.measurements.length > 0) {
      lines.push('', '| Measurement | Median | Unit | Runs | Details |', '|---|---|---|---|---|');
      lines.push(...figure.measurements.map(measurementRow));
    }
    const missed = figure.checks.filter((c) => c.pass === false);
    if (missed.length > 0) {
      lines.push('', '**Missed targets and what limits them:**', '');
      for (const check of missed)
        lines.push(
          `- ${check.label} (${checkValue(check)}, target ${check.target}): ${check.note ?? 'no analysis recorded.'}`,
        );
    }
    if (figure.notes.length > 0) {
      lines.push('', ...figure.notes.map((note) => `- ${note}`));
    }
  }
  lines.push('');
  return lines.join('\n');
}

/** The JSON results file. */
export function toJson(run: RunResult): string {
  return `${JSON.stringify(run, null, 2)}\n`;
}
