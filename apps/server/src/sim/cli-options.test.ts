// The simulator's command line: defaults (the demo sign-in, the server's embedded broker),
// environment credentials, and clear refusals of bad values.
import { describe, expect, it } from 'vitest';
import { parseCliOptions, UsageError } from './cli-options.ts';
import { DEFAULT_SEED } from './models.ts';

describe('parseCliOptions', () => {
  it('defaults to 50 devices every 10 s on the local server as the demo operator', () => {
    expect(parseCliOptions([], {})).toEqual({
      devices: 50,
      intervalMs: 10_000,
      url: 'http://127.0.0.1:3000',
      mqttUrl: 'mqtt://127.0.0.1:1884',
      account: 'demo',
      password: 'Demo@2026',
      prefix: 'SIM',
      durationMs: undefined,
      seed: DEFAULT_SEED,
    });
  });

  it('reads every option, the credentials also from the environment, and the broker host from --url', () => {
    const o = parseCliOptions(['--devices', '5000', '--interval', '0.5', '--url', 'http://iot.example:8080', '--prefix', 'LOAD_', '--duration', '90', '--seed', '3'], {
      IOTC_ACCOUNT: 'ops',
      IOTC_PASSWORD: 'Secret#1',
    });
    expect(o).toEqual({
      devices: 5000,
      intervalMs: 500,
      url: 'http://iot.example:8080',
      mqttUrl: 'mqtt://iot.example:1884',
      account: 'ops',
      password: 'Secret#1',
      prefix: 'LOAD_',
      durationMs: 90_000,
      seed: 3,
    });
    expect(parseCliOptions(['--account', 'a', '--password', 'p', '--mqtt', 'mqtt://broker:1883'], { IOTC_ACCOUNT: 'ops' })).toMatchObject({
      account: 'a',
      password: 'p',
      mqttUrl: 'mqtt://broker:1883',
    });
    expect(parseCliOptions(['--help'], {})).toBe('help');
  });

  it.each([
    [['--devices', '0']],
    [['--devices', '2.5']],
    [['--devices', 'many']],
    [['--interval', '0']],
    [['--duration', '-1']],
    [['--prefix', 'bad prefix']],
    [['--url', 'not a url']],
    [['--unknown']],
    [['positional']],
  ])('refuses %j', (argv) => {
    expect(() => parseCliOptions(argv, {})).toThrow(UsageError);
  });
});
