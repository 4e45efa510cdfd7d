// One Vitest configuration with three projects: shared rules, server (unit + API through
// inject, PGlite or PostgreSQL), and e2e (Chromium against the built app on the real server).
import { defineConfig } from 'vitest/config';
import { localeParts } from './apps/web/vite-locale-parts.ts';
import { chinaOutline } from './apps/web/vite-china-outline.ts';

/**
 * expect.poll waits for its condition up to this long (Vitest's default is 1 s): a condition that
 * holds ends the wait at once, and on a two-core machine at load 15 a screen or a flush can take
 * several seconds to get there. A test that needs longer says so itself.
 */
const expect = { poll: { timeout: 15_000, interval: 50 } };

/**
 * The server projects' environment and limits. Ceilings, not waits: a test waits for its condition
 * and ends as soon as it holds. On a two-core machine at load 12, two files starting side by side
 * took over 60 s to create their database, migrate and seed it (the hook's old ceiling), and
 * failed though nothing was wrong.
 */
const serverLimits = { environment: 'node', expect, testTimeout: 90_000, hookTimeout: 180_000 } as const;

/** Server test files that must not overlap any other (see the 'server-alone' project). */
const SERVER_ALONE = ['apps/server/src/ingest/disk-full.test.ts'];

export default defineConfig({
  test: {
    // The machine has 2 cores; each server test file holds its own PGlite instance.
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      // The property tests (ledger proofs, readings packs) run hundreds of cases: a busy machine needs more than the default 5 s.
      { test: { name: 'shared', include: ['packages/shared/src/**/*.test.ts', 'scripts/**/*.test.ts'], environment: 'node', expect, testTimeout: 30_000 } },
      // Logic and shared components of the web app, in jsdom; whole screens are covered by e2e.
      // Rendering Ant Design in jsdom takes a second or two per screen test here, several times
      // that on a loaded CI machine: the 5 s default failed a passing test there.
      // The language files' parts and the cockpit's China outline are the build's: the same plugins.
      { plugins: [localeParts(), chinaOutline()], test: { name: 'web', include: ['apps/web/src/**/*.test.{ts,tsx}', 'apps/web/*.test.ts'], environment: 'jsdom', expect, testTimeout: 30_000, setupFiles: ['apps/web/src/test/setup.ts'] } },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          exclude: SERVER_ALONE,
          // The run's migrated schema, copied by each file's database (test/db-template.ts).
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          // The files of a worker share its loaded modules: loading the server's modules again for
          // each of some 120 files took about half the project's time. Each file still builds its
          // own app on its own database; module state a file changes (fake timers, mocks) it restores.
          isolate: false,
          ...serverLimits,
        },
      },
      // Files that change what the whole PostgreSQL server can do, run after the other projects
      // and one at a time. The full disk's database lives in a tablespace that a ballast file fills:
      // while it is full no checkpoint can complete, and DROP DATABASE waits for one, so every other
      // file dropping its database then failed ('checkpoint request failed', CI of stop 40).
      // They use no run template (no globalSetup): each makes its own database.
      {
        test: {
          name: 'server-alone',
          include: SERVER_ALONE,
          ...serverLimits,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          // As on the server: the files share the loaded server modules (and run one after another).
          isolate: false,
          expect,
          testTimeout: 90_000,
          hookTimeout: 120_000,
          // One file at a time. Two at once (E2E_PARALLEL=1) saved little on two cores (42 files in
          // 1,992 s, against 2,076 s for 40 one at a time on CI) at load 10-12: a browser test keeps
          // Chromium and the server busy rather than waiting, and a lower load leaves fewer races.
          fileParallelism: process.env.E2E_PARALLEL === '1',
          // A browser test that fails is run once more before it fails the suite: a real defect
          // fails twice, a one-off scheduling stall on a loaded 2-core CI machine does not.
          retry: 1,
        },
      },
    ],
  },
});
