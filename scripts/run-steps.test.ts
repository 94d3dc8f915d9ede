// The step runner behind `npm test`: the graph's order, the cap on steps at once, whole output per
// step, the first failure stopping the rest, with a launcher whose steps end when the test says (the real
// process launcher: run-steps.realtime.test.ts).
import { describe, expect, it } from 'vitest';
import { checkGraph, type Launched, runSteps, type Step } from './run-steps.mjs';
import { TEST_STEPS } from './test-steps.mjs';

/** A launcher whose steps end when the test says, recording starts, stops and the most at once. */
function fakeLauncher() {
  const finishers = new Map<string, (result: { code: number; output: string }) => void>();
  const events: string[] = [];
  let running = 0;
  let most = 0;
  const launch = (step: Step): Launched => {
    running += 1;
    most = Math.max(most, running);
    events.push(`start ${step.name}`);
    let finish: (result: { code: number; output: string }) => void = () => {};
    const done = new Promise<{ code: number; output: string }>((resolve) => {
      finish = resolve;
    }).then((result) => {
      running -= 1;
      return result;
    });
    finishers.set(step.name, finish);
    return {
      done,
      stop: () => {
        events.push(`stop ${step.name}`);
        finish({ code: 143, output: 'partial' });
      },
    };
  };
  /** Ends a started step and lets the runner react. */
  const end = async (name: string, code = 0, output = `${name} says hi\n`) => {
    const finish = finishers.get(name);
    if (!finish) throw new Error(`${name} has not started`);
    finish({ code, output });
    await settle();
  };
  return { launch, end, events, most: () => most };
}

/** Lets every pending promise callback run (no timers involved). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

function collect() {
  const printed: string[] = [];
  return { printed, print: (text: string) => printed.push(text), text: () => printed.join('') };
}

const step = (name: string, extra: Partial<Step> = {}): Step => ({ name, command: ['true'], ...extra });

describe('runSteps', () => {
  it('starts a step only after the steps it comes after passed, and never more than `jobs` at once', async () => {
    const fake = fakeLauncher();
    const out = collect();
    const steps = [step('build'), step('typecheck'), step('lint'), step('packages', { after: ['build'] })];
    const run = runSteps(steps, { jobs: 2, launch: fake.launch, print: out.print });
    await settle();
    expect(fake.events).toEqual(['start build', 'start typecheck']);
    await fake.end('typecheck');
    // lint may start; packages waits for build although a slot is free.
    expect(fake.events).toEqual(['start build', 'start typecheck', 'start lint']);
    await fake.end('build');
    expect(fake.events.at(-1)).toBe('start packages');
    await fake.end('lint');
    await fake.end('packages');
    const { ok, results } = await run;
    expect(ok).toBe(true);
    expect(fake.most()).toBe(2);
    expect(results.map((result) => result.outcome)).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect(out.text()).toMatch(/all 4 steps passed in \d+\.\d s\n$/);
  });

  it("prints each step's output whole, under its name, when it ends", async () => {
    const fake = fakeLauncher();
    const out = collect();
    const run = runSteps([step('one'), step('two')], { jobs: 2, launch: fake.launch, print: out.print });
    await settle();
    await fake.end('two', 0, 'line 1 of two\nline 2 of two');
    await fake.end('one', 0, 'only line of one\n');
    await run;
    const blocks = out.printed.filter((text) => text.includes(' of '));
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toMatch(/^─── ✔ two ─+\nline 1 of two\nline 2 of two\n✔ two: passed in \d+\.\d s\n$/);
    expect(blocks[1]).toContain('only line of one\n✔ one: passed');
  });

  it('stops the running steps at the first failure, starts no more, and fails the run', async () => {
    const fake = fakeLauncher();
    const out = collect();
    let clock = 0;
    const steps = [step('lint'), step('tests'), step('docs'), step('links', { after: ['docs'] })];
    const run = runSteps(steps, { jobs: 2, launch: fake.launch, print: out.print, now: () => clock });
    await settle();
    clock = 61_500;
    await fake.end('lint', 1, 'src/a.ts: unused variable\n');
    const { ok, results } = await run;
    expect(ok).toBe(false);
    expect(fake.events).toEqual(['start lint', 'start tests', 'stop tests']);
    expect(results.map((result) => [result.name, result.outcome])).toEqual([
      ['lint', 'failed'],
      ['tests', 'stopped'],
      ['docs', 'not run'],
      ['links', 'not run'],
    ]);
    expect(out.text()).toContain('src/a.ts: unused variable\n✘ lint: FAILED (exit code 1) in 1 min 2 s\n');
    expect(out.text()).toContain('■ tests: stopped after 1 min 2 s (another step failed)');
    expect(out.printed.at(-1)?.trim().split('\n').at(-1)).toBe(
      'FAILED: lint; stopped: tests; not run: docs, links (after 1 min 2 s)',
    );
  });

  it('with keepGoing, lets the others finish and starts what does not need the failed step', async () => {
    const fake = fakeLauncher();
    const out = collect();
    const steps = [step('build'), step('lint'), step('packages', { after: ['build'] }), step('docs')];
    const run = runSteps(steps, { jobs: 2, launch: fake.launch, print: out.print, keepGoing: true });
    await settle();
    await fake.end('build', 2);
    expect(fake.events).toEqual(['start build', 'start lint', 'start docs']);
    await fake.end('lint');
    await fake.end('docs');
    const { ok, results } = await run;
    expect(ok).toBe(false);
    expect(results.map((result) => result.outcome)).toEqual(['failed', 'passed', 'not run', 'passed']);
    expect(out.printed.at(-1)?.trim().split('\n').at(-1)).toMatch(
      /^FAILED: build; not run: packages \(after/,
    );
  });

  it('stops the running steps when interrupted', async () => {
    const fake = fakeLauncher();
    const controller = new AbortController();
    const out = collect();
    const run = runSteps([step('a'), step('b')], {
      jobs: 1,
      launch: fake.launch,
      print: out.print,
      signal: controller.signal,
    });
    await settle();
    controller.abort();
    const { ok } = await run;
    expect(ok).toBe(false);
    expect(fake.events).toEqual(['start a', 'stop a']);
    expect(out.text()).toMatch(/INTERRUPTED; stopped: a; not run: b \(after/);
  });

  it('ends with a table of when each step started and how long it took', async () => {
    const fake = fakeLauncher();
    const out = collect();
    let clock = 0;
    const run = runSteps([step('build'), step('check:packages', { after: ['build'] })], {
      jobs: 2,
      launch: fake.launch,
      print: out.print,
      now: () => clock,
    });
    await settle();
    clock = 40_000;
    await fake.end('build');
    clock = 190_000;
    await fake.end('check:packages');
    await run;
    expect(out.printed.at(-1)).toBe(
      [
        '',
        '  build           from      0.0 s  took     40.0 s  passed',
        '  check:packages  from     40.0 s  took 2 min 30 s  passed',
        'all 2 steps passed in 3 min 10 s',
        '',
      ].join('\n'),
    );
  });
});

describe('checkGraph', () => {
  it('refuses a step after an unknown step, a repeated name and steps that wait on each other', () => {
    expect(() => checkGraph([step('a', { after: ['bulid'] })])).toThrow(
      'step "a" comes after "bulid", which is no step',
    );
    expect(() => checkGraph([step('a'), step('a')])).toThrow('two steps are named "a"');
    expect(() =>
      checkGraph([step('a', { after: ['c'] }), step('b', { after: ['a'] }), step('c', { after: ['b'] })]),
    ).toThrow('the steps wait on each other: a → c → b → a');
  });

  it("accepts npm test's steps, where check:packages runs after the build and PostgreSQL's install, and the type check after the build", () => {
    // checkGraph returns nothing: accepting a graph is not throwing (its refusals are the test above).
    expect(() => checkGraph(TEST_STEPS)).not.toThrow();
    const byName = new Map(TEST_STEPS.map((entry) => [entry.name, entry]));
    expect(byName.get('check:packages')).toMatchObject({
      after: ['system-packages', 'build'],
    });
    expect(byName.get('test:unit')?.after).toContain('build');
    // `tsc -b` reuses the declarations the build writes: beside it, both would write them.
    expect(byName.get('typecheck')?.after).toContain('build');
    expect([...byName.keys()].sort()).toEqual(
      [
        'build',
        'check:doc-samples',
        'check:docs-site',
        'check:links',
        'check:packages',
        'docs',
        'lint',
        'system-packages',
        'test:unit',
        'typecheck',
      ].sort(),
    );
  });
});
