// What the guide runner reads of a `with-pytest` command's output: every test passed and, for `-n N`, N
// workers each ran some, as pytest-xdist's verbose lines say.
import { describe, expect, it } from 'vitest';
import { pytestOutcome, verbosePytest } from './pytest-run.mjs';

/** A verbose pytest-xdist run's output: one PASSED line per test, on the workers given, then the summary. */
function output(workers: readonly string[], summary = '4 passed in 2.35s') {
  return [
    '============================= test session starts ==============================',
    'plugins: xdist-3.1.0',
    'gw0 [4] / gw1 [4]',
    '',
    ...workers.map(
      (worker, index) => `[${worker}] [ ${(index + 1) * 25}%] PASSED suite/test_x.py::test_x[${index}] `,
    ),
    '',
    `======================== ${summary} ========================`,
  ].join('\n');
}

describe('pytestOutcome', () => {
  it('says how many passed, on how many workers, and how many each ran', () => {
    expect(pytestOutcome('pytest-3 -n 2 suite', output(['gw0', 'gw1', 'gw1', 'gw0']))).toBe(
      '4 passed in 2.35 s, on 2 workers, each ran 2',
    );
    expect(pytestOutcome('pytest-3 -n 2 suite', output(['gw0', 'gw1', 'gw1', 'gw1']))).toBe(
      '4 passed in 2.35 s, on 2 workers, each ran 1 to 3',
    );
    expect(pytestOutcome('pytest-3 -q suite', output([], '3 passed, 1 warning in 0.50s'))).toBe(
      '3 passed, 1 warning in 0.50 s, in one process',
    );
  });

  it('fails when fewer workers ran tests than -n asks: a parallel suite that ran in one process proves nothing', () => {
    expect(() => pytestOutcome('pytest-3 -n 8 suite', output(['gw0', 'gw0', 'gw1', 'gw1']))).toThrow(
      '`pytest-3 -n 8 suite`: 8 workers asked, but 2 ran tests (gw0, gw1)',
    );
    expect(() => pytestOutcome('pytest-3 --numprocesses=2 suite', output([]))).toThrow(
      '2 workers asked, but 0 ran tests (none: did pytest-xdist load?)',
    );
  });

  it('fails when no test passed', () => {
    expect(() => pytestOutcome('pytest-3 suite', output([], 'no tests ran in 0.01s'))).toThrow(
      /^`pytest-3 suite`: no passed tests in its output/,
    );
  });

  it('runs the command verbose, so each PASSED line names its worker', () => {
    expect(verbosePytest('pytest-3 -n 8 suite')).toBe(
      "PYTEST_ADDOPTS='-v --basetemp=.pytest-tmp' pytest-3 -n 8 suite",
    );
  });
});
