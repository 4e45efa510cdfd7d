// A housekeeping job of one node: a run at once and every `everyMs`, one run at a time; a turn
// is skipped while `shouldRun` says no (the database is unreachable or cannot write); a failed run
// goes to `onError` and the next turn tries again. stop() waits for a run in progress.
export interface PeriodicJob {
  /** Runs now (or joins the run in progress). */
  run(): Promise<void>;
  stop(): Promise<void>;
}

export function periodicJob(work: () => Promise<void>, opts: { everyMs: number; shouldRun?: () => boolean; onError: (err: unknown) => void }): PeriodicJob {
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = (): Promise<void> => {
    if (running) return running;
    if (stopped || opts.shouldRun?.() === false) return Promise.resolve();
    running = work()
      .catch(opts.onError)
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  void run();
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
