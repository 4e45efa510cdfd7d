// Readiness checks of one server process: the database answers (added by the ops plugin) and
// whatever other parts register (the device link, for one). While draining (main.ts calls
// setDraining() on SIGTERM) the process says it is not ready, so a load balancer stops sending
// it traffic while it finishes what it has.

/** The operations endpoints (liveness, readiness, Prometheus metrics). */
export const OPS_PATHS = { health: '/healthz', ready: '/readyz', metrics: '/metrics' } as const;

/** How long one check may take before it counts as failed. */
export const CHECK_TIMEOUT_MS = 2_000;

/** `app.health`: register readiness checks and mark the process as draining. */
export interface Health {
  /** A check passes when it returns or resolves, fails when it throws, rejects or takes longer than 2 s. A name is kept once (a later check of that name replaces it). */
  addCheck(name: string, check: () => Promise<void> | void): void;
  /** From now on /readyz answers 503 `draining`. */
  setDraining(): void;
  readonly draining: boolean;
}

export interface CheckResult {
  ok: boolean;
  ms: number;
  error?: string;
}

export interface Readiness {
  status: 'ready' | 'unready' | 'draining';
  checks: Record<string, CheckResult>;
}

export function healthChecks(): Health & { run(): Promise<Readiness> } {
  const checks = new Map<string, () => Promise<void> | void>();
  let draining = false;

  async function runOne(check: () => Promise<void> | void): Promise<CheckResult> {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(check),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`timed out after ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
        }),
      ]);
      return { ok: true, ms: Math.round(performance.now() - started) };
    } catch (err) {
      // A short reason for the operator; the full error is in the log.
      const error = (err instanceof Error ? err.message : String(err)).slice(0, 200);
      return { ok: false, ms: Math.round(performance.now() - started), error };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    addCheck(name, check) {
      checks.set(name, check);
    },
    setDraining() {
      draining = true;
    },
    get draining() {
      return draining;
    },
    /** Every check at once; draining answers at once without them. */
    async run() {
      if (draining) return { status: 'draining', checks: {} };
      const entries = await Promise.all([...checks].map(async ([name, check]) => [name, await runOne(check)] as const));
      const results = Object.fromEntries(entries);
      return { status: entries.every(([, r]) => r.ok) ? 'ready' : 'unready', checks: results };
    },
  };
}
