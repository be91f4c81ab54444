import { defineConfig } from 'vitest/config';

// Four projects: fast pure unit tests (most on one module graph per worker, those that mock
// modules each on their own), integration tests that start real servers,
// real SQLite files, real ffmpeg and a real Secret Service, and the backend's image run as a container.
// Each drains the test worlds' one cleanup
// registry (test/support/worlds/setup.ts) after each test and each file.
const setupFiles = ['test/support/worlds/setup.ts'];
/** Unit tests that need a module graph of their own (see the `unit-isolated` project). */
const UNIT_ISOLATED = [
  'test/unit/renderer/**/*.test.{ts,tsx}',
  'test/unit/shell/**/*.test.ts',
  'test/unit/features/profiles-feature.test.ts',
  // mocks node:fs/promises under the journal's database module
  'test/unit/journal/durable-commits.test.ts',
];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'],
          exclude: UNIT_ISOLATED,
          environment: 'node',
          setupFiles,
          testTimeout: 20_000,
          // both cores (vitest's default leaves one free: one fork on this 2-core machine)
          maxWorkers: 2,
          // a worker runs file after file on one module graph: the pure tests' imports are paid
          // once per worker, not once per file (measured: 17 s for the step against 44 s; imports were
          // more than half of it)
          isolate: false,
        },
      },
      {
        test: {
          // the unit tests that mock modules (vi.mock) or keep module state between their tests
          // (the renderer's one store, the Electron shell's fakes): each file on its own module graph
          name: 'unit-isolated',
          include: UNIT_ISOLATED,
          environment: 'node',
          setupFiles,
          testTimeout: 20_000,
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // the image's own project (below): it needs the image built, and runs beside the end-to-end tests
          exclude: ['test/integration/deployment/**'],
          environment: 'node',
          setupFiles,
          // limits for a hung test, not speed checks (those are in `npm run bench`): these tests render
          // with ffmpeg at a lower priority than everything else (media-tools' lowerPriority), so on a
          // machine busy at normal priority — the soak's CPU burner — a render takes many times longer
          // (measured: a 90 s delivery test past 120 s); so the tests set no shorter limits of their own.
          testTimeout: 600_000,
          hookTimeout: 600_000,
          pool: 'forks',
          // three files at once: they mostly wait on their own simulators, servers, ffmpeg and the
          // engine's polls, so more forks than cores use the time one file waits (vitest's default is
          // one fork on two cores)
          maxWorkers: 3,
          // a fork runs file after file without reloading the modules: each test opens and closes its
          // own worlds (the cleanup registry), and a fresh module graph per file cost 74 s of
          // imports (measured: 337 s for the step against 399 s with isolation, 810 tests passing)
          isolate: false,
        },
      },
      {
        test: {
          // the backend's container image built (npm run image) and run as an orchestrator would:
          // its own step of npm test, after the end-to-end tests (which leave a core free for it)
          name: 'image',
          include: ['test/integration/deployment/**/*.test.ts'],
          environment: 'node',
          setupFiles,
          testTimeout: 600_000,
          hookTimeout: 600_000,
          pool: 'forks',
        },
      },
    ],
  },
});
