// The simulator's command line: defaults (the demo sign-in, the server's embedded broker),
// environment credentials, --protocol jt808 (phone-number ids, the gateway's address, coverage
// gaps), and clear refusals of bad values.
import { describe, expect, it } from 'vitest';
import { parseCliOptions, UsageError } from './cli-options.ts';
import { DEFAULT_SEED } from './models.ts';

describe('parseCliOptions', () => {
  it('defaults to 50 devices every 10 s on the local server as the demo operator', () => {
    expect(parseCliOptions([], {})).toEqual({
      protocol: 'json',
      devices: 50,
      intervalMs: 10_000,
      url: 'http://127.0.0.1:3000',
      mqttUrl: 'mqtt://127.0.0.1:1884',
      jt808: { host: '127.0.0.1', port: 6808 },
      gaps: { everyMs: 600_000, forMs: 60_000 },
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
      protocol: 'json',
      devices: 5000,
      intervalMs: 500,
      url: 'http://iot.example:8080',
      mqttUrl: 'mqtt://iot.example:1884',
      jt808: { host: 'iot.example', port: 6808 },
      gaps: { everyMs: 600_000, forMs: 60_000 },
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

  it('takes --protocol jt808: six-digit prefixes for 12-digit phone numbers, the gateway on the --url host, coverage gaps', () => {
    expect(parseCliOptions(['--protocol', 'jt808', '--devices', '3', '--url', 'http://iot.example:8080'], {})).toMatchObject({
      protocol: 'jt808',
      devices: 3,
      prefix: '014400',
      jt808: { host: 'iot.example', port: 6808 },
      gaps: { everyMs: 600_000, forMs: 60_000 },
    });
    expect(parseCliOptions(['--protocol', 'jt808', '--prefix', '013900', '--jt808', 'gw.example:7000', '--gap-every', '120', '--gap-for', '30'], {})).toMatchObject({
      prefix: '013900',
      jt808: { host: 'gw.example', port: 7000 },
      gaps: { everyMs: 120_000, forMs: 30_000 },
    });
    expect(parseCliOptions(['--protocol', 'jt808', '--jt808', '7001', '--url', 'http://[::1]:3000', '--gap-every', '0'], {})).toMatchObject({
      jt808: { host: '::1', port: 7001 },
      gaps: { everyMs: 0 },
    });
    expect(parseCliOptions(['--protocol', 'json'], {})).toMatchObject({ protocol: 'json', prefix: 'SIM' });
  });

  it.each([
    [['--protocol', 'gt06']],
    [['--protocol', 'jt808', '--prefix', 'SIM']],
    [['--protocol', 'jt808', '--prefix', '01440']],
    [['--jt808', 'host:99999']],
    [['--jt808', 'host:']],
    [['--gap-every', '0.5']],
    [['--gap-for', '0']],
    [['--gap-every', '60', '--gap-for', '60']],
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
