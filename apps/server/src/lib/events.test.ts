import { describe, expect, it } from 'vitest';
import { steps, topic } from './events.ts';

describe('topic', () => {
  it('tells every listener in order, keeps telling the others when one throws, and answers the first error', () => {
    const t = topic<number>();
    const heard: string[] = [];
    t.subscribe((n) => heard.push(`a${n}`));
    t.subscribe(() => {
      throw new Error('b failed');
    });
    const stop = t.subscribe((n) => heard.push(`c${n}`));
    const failed = t.publish(1);
    expect(heard).toEqual(['a1', 'c1']);
    expect((failed as Error).message).toBe('b failed');
    stop();
    t.publish(2);
    expect(heard).toEqual(['a1', 'c1', 'a2']);
  });

  it('answers nothing when every listener heard it', () => {
    const t = topic<string>();
    t.subscribe(() => undefined);
    expect(t.publish('x')).toBeUndefined();
  });
});

describe('steps', () => {
  it('awaits each step in the order added, and the first that fails fails the run (the later ones do not run)', async () => {
    const s = steps<number>();
    const ran: string[] = [];
    s.add(async (n) => {
      await new Promise((r) => setImmediate(r));
      ran.push(`slow${n}`);
    });
    const remove = s.add(async (n) => {
      ran.push(`fails${n}`);
      throw new Error('step failed');
    });
    s.add(async (n) => void ran.push(`last${n}`));
    await expect(s.run(1)).rejects.toThrow('step failed');
    expect(ran).toEqual(['slow1', 'fails1']);
    remove();
    await s.run(2);
    expect(ran).toEqual(['slow1', 'fails1', 'slow2', 'last2']);
  });
});
