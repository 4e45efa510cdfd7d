// A periodic job of one node: a turn every `everyMs` (and one at once with `atStart`), one run at
// a time (a turn that finds the last run going joins it); a turn is skipped while `shouldRun`
// says no (the database is unreachable or cannot write); a failed run goes to `onError` and the
// next turn tries again; a run that answers 'again' (a backlog remains) is followed by another
// at once. stop() ends the turns and waits for a run in progress. The jobs plugin
// (plugins/jobs.ts) builds every job of the server with it.
export interface PeriodicJob {
  /** Runs now (or joins the run in progress). */
  run(): Promise<void>;
  stop(): Promise<void>;
}

/** What a run may answer: 'again' when work remains, so the next run follows at once. */
export type RunResult = void | 'again';

export function periodicJob(
  work: () => Promise<RunResult>,
  opts: { everyMs: number; atStart?: boolean; shouldRun?: () => boolean; onError: (err: unknown) => void },
): PeriodicJob {
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = (): Promise<void> => {
    if (running) return running;
    if (stopped || opts.shouldRun?.() === false) return Promise.resolve();
    running = work()
      .then((result) => {
        if (result === 'again') setImmediate(() => void run());
      }, opts.onError)
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  if (opts.atStart ?? true) void run();
  const timer = setInterval(() => void run(), opts.everyMs);
  timer.unref();
  return {
    run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
