/**
 * A short CPU profile of the current process through the inspector, summarised as the functions and
 * modules with the most self time. Used to name what limits a figure that misses its target.
 */
import { Session } from 'node:inspector/promises';
import path from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
}

/** One line of a profile summary: a function or a module and its share of the busy samples. */
export interface HotSpot {
  /** `function (file:line)` or a module name. */
  name: string;
  /** Share of busy (non-idle) samples, in percent. */
  percent: number;
}

/** What a profile shows: the hottest functions and modules by self time. */
export interface ProfileSummary {
  /** Busy samples taken. */
  samples: number;
  /** Top functions by self time. */
  functions: HotSpot[];
  /** Top modules (package, workspace source file, or Node internals) by self time. */
  modules: HotSpot[];
  /** Self time per module in microseconds (every module, for comparisons). */
  moduleMicros: Record<string, number>;
  /** Self time per function in microseconds (every function, for comparisons). */
  functionMicros: Record<string, number>;
}

/**
 * Makes a script URL short and free of this machine's paths: `pkg/file` inside node_modules, a path
 * relative to the repository otherwise, the bare name as a last resort.
 */
export function shortUrl(url: string): string {
  if (url === '') return '(native)';
  let file = url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url;
  const nm = file.lastIndexOf('/node_modules/');
  if (nm >= 0) return file.slice(nm + '/node_modules/'.length);
  const root = process.cwd() + path.sep;
  if (file.startsWith(root)) file = file.slice(root.length);
  return path.isAbsolute(file) ? path.basename(file) : file;
}

function moduleOf(url: string): string {
  const short = shortUrl(url);
  if (short.startsWith('node:')) return 'node internals';
  if (short.startsWith('wasm:')) return 'wasm (undici llhttp parser)';
  if (short.startsWith('(')) return short;
  const parts = short.split('/');
  if (parts[0] === 'bench') return 'bench harness (baseline code)';
  if (parts[0] === 'packages') return parts.slice(0, 4).join('/');
  if ((parts[0] ?? '').startsWith('@')) return parts.slice(0, 2).join('/');
  return parts[0] ?? short;
}

function top(map: Map<string, number>, total: number, count: number): HotSpot[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, hits]) => ({ name, percent: Math.round((hits / total) * 1000) / 10 }));
}

/** Summarises a V8 CPU profile by self time, ignoring idle samples. */
export function summarise(profile: CpuProfile, count = 10): ProfileSummary {
  const functions = new Map<string, number>();
  const modules = new Map<string, number>();
  const sampleCount = profile.samples?.length ?? 0;
  const interval = sampleCount > 0 ? (profile.endTime - profile.startTime) / sampleCount : 0;
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (hits === 0 || functionName === '(idle)') continue;
    total += hits;
    const name = url
      ? `${functionName || '(anonymous)'} (${shortUrl(url)}:${lineNumber + 1})`
      : functionName || '(anonymous)';
    functions.set(name, (functions.get(name) ?? 0) + hits);
    const mod = url ? moduleOf(url) : functionName || '(native, unnamed)';
    modules.set(mod, (modules.get(mod) ?? 0) + hits);
  }
  const moduleMicros = Object.fromEntries([...modules].map(([name, hits]) => [name, hits * interval]));
  const functionMicros = Object.fromEntries([...functions].map(([name, hits]) => [name, hits * interval]));
  if (total === 0) return { samples: 0, functions: [], modules: [], moduleMicros, functionMicros };
  return {
    samples: total,
    functions: top(functions, total, count),
    modules: top(modules, total, count),
    moduleMicros,
    functionMicros,
  };
}

/** Starts profiling this process; the returned function stops and summarises. */
export async function startProfile(intervalMicros = 200): Promise<() => Promise<ProfileSummary>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalMicros });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
    await session.post('Profiler.disable');
    session.disconnect();
    return summarise(profile);
  };
}

/** Renders a summary as one note line per list, for the results file. */
export function describeProfile(where: string, summary: ProfileSummary): string {
  const list = (spots: HotSpot[]) => spots.map((s) => `${s.name} ${s.percent}%`).join('; ');
  return `Profile of ${where} (${summary.samples} busy samples, self time) — modules: ${list(summary.modules.slice(0, 6))}. Functions: ${list(summary.functions.slice(0, 8))}.`;
}

/**
 * Names where a slow variant spends its extra time: per-operation self time by module, slow minus baseline,
 * largest differences first.
 */
export function describeDifference(
  slow: { label: string; summary: ProfileSummary; ops: number },
  baseline: { label: string; summary: ProfileSummary; ops: number },
): string {
  const deltas = (pick: (summary: ProfileSummary) => Record<string, number>, count: number) => {
    const a = pick(slow.summary);
    const b = pick(baseline.summary);
    return [...new Set([...Object.keys(a), ...Object.keys(b)])]
      .map((name) => ({ name, delta: (a[name] ?? 0) / slow.ops - (b[name] ?? 0) / baseline.ops }))
      .filter((row) => Math.abs(row.delta) >= 1)
      .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta))
      .slice(0, count)
      .map((r) => `${r.name} ${r.delta > 0 ? '+' : ''}${Math.round(r.delta)} µs`)
      .join('; ');
  };
  const modules = deltas((s) => s.moduleMicros, 8);
  const functions = deltas((s) => s.functionMicros, 8);
  return (
    `CPU self time per request, "${slow.label}" minus "${baseline.label}" (V8 counts builtins such as ` +
    `JSON.parse in the function that calls them). By module: ${modules || 'none differs by 1 µs or more'}. ` +
    `By function: ${functions || 'none differs by 1 µs or more'}.`
  );
}
