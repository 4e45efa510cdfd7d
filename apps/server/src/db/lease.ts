// Leases: the rounds of periodic work that must run on one node at a time (the alarm tick, the
// push tick, the command time-outs, the ledger, the storage figures). A lease is a
// transaction-scoped advisory lock taken without waiting: the node that gets it does its round in
// that transaction and the others skip it; the lock ends with the transaction, so a node that
// dies mid-round frees it at once. The jobs plugin (plugins/jobs.ts) hands the node's leases to
// the modules; work that spans many transactions (the readings archive) keeps a lease row instead.
import { LOCKS, tryXactLock, type Db, type Tx } from './client.ts';

const KEYS = {
  'alarm tick': LOCKS.alarmTick,
  'alarm push tick': LOCKS.pushTick,
  'command timeouts': LOCKS.commandTimeout,
  ledger: LOCKS.ledger,
  'storage figures': LOCKS.storage,
  'product budgets': LOCKS.productBudgets,
} as const;

export type LeaseName = keyof typeof KEYS;

/**
 * Runs `work` in a transaction holding the lease `name`; answers its result, or `skipped` when
 * another node holds the lease (this node skips the round).
 */
export type Lease = <R, S = undefined>(name: LeaseName, work: (tx: Tx) => Promise<R>, skipped?: S) => Promise<R | S>;

export function leases(db: Db, opts: { onSkipped?: (name: LeaseName) => void } = {}): Lease {
  return async <R, S = undefined>(name: LeaseName, work: (tx: Tx) => Promise<R>, skipped?: S): Promise<R | S> => {
    let held = true;
    const r = await db.transaction(async (tx) => {
      if (!(await tryXactLock(tx, KEYS[name]))) {
        held = false;
        return undefined;
      }
      return work(tx);
    });
    if (held) return r as R;
    opts.onSkipped?.(name);
    return skipped as S;
  };
}
