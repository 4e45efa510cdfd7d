// The process entry stops on a bad setting with exactly one line naming the variable.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));

describe('start with a bad setting', () => {
  it.each([
    ['PORT', 'abc'],
    ['DATABASE_URL', 'mysql://db/x'],
    ['LOG_LEVEL', 'chatty'],
  ])('%s=%s stops the start with one clear line', { timeout: 120_000 }, (name, value) => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', main], {
      env: { ...process.env, DATABASE_URL: '', MQTT_URL: '', [name]: value },
      encoding: 'utf8',
      // Loading the server's modules through tsx takes seconds, many on a busy machine: the limit only stops a hang.
      timeout: 90_000,
    });
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^Invalid setting ${name} \\(got "${value.replace(/[/.]/g, '\\$&')}"\\): `));
    expect(r.stdout).toBe('');
  });
});
