// The jobs plugin: what every periodic job of a node gets from it (timers, one run at a time,
// pauses while the database is unreachable or cannot write, failures logged by name, a clean stop).
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseAvailability } from '../db/availability.ts';
import type { Database } from '../db/client.ts';
import { testApp } from '../test/harness.ts';
import { jobsPlugin } from './jobs.ts';

/** A stand-in availability: down / unwritable as the test says; `failed` tells whether an error is an outage. */
function availability(state: { down: boolean; unwritable: boolean; outage?: boolean }) {
  return {
    get down() {
      return state.down;
    },
    get unwritable() {
      return state.unwritable;
    },
    failed: async () => state.outage === true,
  } as unknown as DatabaseAvailability;
}

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

async function build(state: { down: boolean; unwritable: boolean; outage?: boolean }) {
  const lines: { msg: string; job?: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as { msg: string; job?: string });
      done();
    },
  });
  const app = Fastify({ logger: { level: 'warn', stream } });
  apps.push(app);
  // No database: these jobs take no lease (db/lease.test.ts covers leases).
  await app.register(jobsPlugin, { availability: availability(state), database: {} as Database });
  await app.ready();
  return { app, lines };
}

/** Resolves when `check` holds (polled on each turn of the event loop). */
async function until(check: () => boolean) {
  while (!check()) await new Promise((r) => setImmediate(r));
}

describe('jobs plugin', () => {
  it('runs a job at start only when asked, then on its turns, and lists the jobs of the node', async () => {
    const { app } = await build({ down: false, unwritable: false });
    let atStart = 0;
    let later = 0;
    app.job('at start', { everyMs: 3_600_000, atStart: true }, async () => void atStart++);
    const plain = app.job('later', { everyMs: 3_600_000 }, async () => void later++);
    app.job('not here', { everyMs: 0 }, async () => void later++);
    await until(() => atStart === 1);
    expect(later).toBe(0);
    await plain.run();
    expect(later).toBe(1);
    expect(app.jobs()).toEqual([
      { name: 'at start', everyMs: 3_600_000 },
      { name: 'later', everyMs: 3_600_000 },
    ]);
  });

  it('runs one at a time: a turn during a run joins it', async () => {
    const { app } = await build({ down: false, unwritable: false });
    let runs = 0;
    let release!: () => void;
    const job = app.job('slow', { everyMs: 3_600_000 }, async () => {
      runs++;
      await new Promise<void>((r) => (release = r));
    });
    const a = job.run();
    const b = job.run();
    release();
    await Promise.all([a, b]);
    expect(runs).toBe(1);
  });

  it('skips turns while the database is unreachable or cannot write, unless the job runs while unwritable', async () => {
    const state = { down: true, unwritable: false };
    const { app } = await build(state);
    const ran: string[] = [];
    const job = app.job('writer', { everyMs: 3_600_000 }, async () => void ran.push('writer'));
    const maker = app.job('maker', { everyMs: 3_600_000, whileUnwritable: true }, async () => void ran.push('maker'));
    await job.run();
    await maker.run();
    expect(ran).toEqual([]);
    Object.assign(state, { down: false, unwritable: true });
    await job.run();
    await maker.run();
    expect(ran).toEqual(['maker']);
    state.unwritable = false;
    await job.run();
    expect(ran).toEqual(['maker', 'writer']);
  });

  it('logs a failure with the job name, but not one the availability calls an outage; the next turn runs again', async () => {
    const state = { down: false, unwritable: false, outage: false };
    const { app, lines } = await build(state);
    let calls = 0;
    const job = app.job('ledger tick', { everyMs: 3_600_000 }, async () => {
      calls++;
      throw new Error('boom');
    });
    await job.run();
    await until(() => lines.length === 1);
    expect(lines[0]).toMatchObject({ msg: 'ledger tick failed', job: 'ledger tick' });
    state.outage = true;
    await job.run();
    await job.run();
    expect(calls).toBe(3);
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(1);
  });

  it("runs again at once while a run answers 'again' (a backlog remains)", async () => {
    const { app } = await build({ down: false, unwritable: false });
    let left = 3;
    app.job('backlog', { everyMs: 3_600_000, atStart: true }, async () => (--left > 0 ? 'again' : undefined));
    await until(() => left === 0);
    expect(left).toBe(0);
  });

  it('closing the app waits for a run in progress and starts no other', async () => {
    const { app } = await build({ down: false, unwritable: false });
    let finished = false;
    let started = 0;
    let release!: () => void;
    const job = app.job('long', { everyMs: 3_600_000 }, async () => {
      started++;
      await new Promise<void>((r) => (release = r));
      finished = true;
    });
    void job.run();
    await until(() => started === 1);
    const closed = app.close();
    release();
    await closed;
    expect(finished).toBe(true);
    await job.run();
    expect(started).toBe(1);
  });

  it('the server declares every periodic job through it', async () => {
    const t = await testApp({ archiveMs: 60_000, retentionMs: 3_600_000, storageMs: 3_600_000 });
    try {
      expect(t.app.jobs().map((j) => j.name)).toEqual(
        expect.arrayContaining(['readings partitions', 'offline sweep', 'alarm tick', 'alarm push tick', 'readings archive', 'storage figures', 'retention', 'command timeouts', 'scheduled reports', 'ledger tick', 'ledger checkpoint']),
      );
    } finally {
      await t.close();
    }
  });
});
