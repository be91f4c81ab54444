// What `npm test` (test-all.mjs) and `npm run test:soak` (test-soak.mjs) read of Playwright's JSON
// report: one walk over its nested suites, shared by both.

/**
 * Every test of a Playwright JSON report's suites, flat: its spec (`file`, `line`, `title`), the
 * `describe` titles above it (file-level suites left out) and the test (`status`, `results`).
 * @param {any[] | undefined} suites
 * @returns {{ spec: any, test: any, titles: string[] }[]}
 */
export function playwrightTests(suites, titles = [], into = []) {
  for (const suite of suites ?? []) {
    const inner = suite.title && !suite.title.endsWith('.ts') ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? []) into.push({ spec, test, titles: inner });
    playwrightTests(suite.suites, inner, into);
  }
  return into;
}

/** A test's name as both scripts print it: `spec title` under its `describe` titles. */
export function playwrightTestName({ spec, titles }) {
  return [...titles, spec.title].join(' › ');
}
