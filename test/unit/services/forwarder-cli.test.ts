import { describe, expect, it } from 'vitest';
import { parseForwarderArgs } from '../../../services/forwarder-cli';

describe('npm run forwarder: its options', () => {
  it('defaults to loopback and any free ports', () => {
    expect(parseForwarderArgs([])).toEqual({
      ok: true,
      options: { host: '127.0.0.1', port: 0, adminHost: '127.0.0.1', adminPort: 0, portalPort: 0, redis: undefined, trustedProxies: [], hubIds: 'refuse' },
    });
    expect(parseForwarderArgs(['--host', '0.0.0.0', '--port', '8080', '--portal-port=8081'])).toEqual({
      ok: true,
      options: { host: '0.0.0.0', port: 8080, adminHost: '127.0.0.1', adminPort: 0, portalPort: 8081, redis: undefined, trustedProxies: [], hubIds: 'refuse' },
    });
  });

  it('keeps the admin listener on loopback when the intake listens on every interface, unless --admin-host says otherwise', () => {
    expect(parseForwarderArgs(['--host', '0.0.0.0', '--admin-port', '9090'])).toMatchObject({
      ok: true,
      options: { host: '0.0.0.0', adminHost: '127.0.0.1', adminPort: 9090 },
    });
    expect(parseForwarderArgs(['--admin-host', '10.1.2.3', '--admin-port=9090'])).toMatchObject({
      ok: true,
      options: { host: '127.0.0.1', adminHost: '10.1.2.3', adminPort: 9090 },
    });
  });

  it('takes a redis:// or rediss:// URL for --redis, and nothing else (without echoing it: it may hold a password)', () => {
    expect(parseForwarderArgs(['--redis', 'redis://10.0.0.5:6380'])).toMatchObject({ ok: true, options: { redis: 'redis://10.0.0.5:6380' } });
    expect(parseForwarderArgs(['--redis=rediss://user:pw@cache.example:6379/2'])).toMatchObject({
      ok: true,
      options: { redis: 'rediss://user:pw@cache.example:6379/2' },
    });
    for (const bad of ['localhost:6379', 'http://cache:6379', 'redis://', '']) {
      expect(parseForwarderArgs(['--redis', bad]), bad).toEqual({ ok: false, error: '--redis must be a redis:// or rediss:// URL with a host' });
    }
  });

  it('takes addresses and CIDR blocks for --trusted-proxy, and refuses anything else, saying which', () => {
    expect(parseForwarderArgs(['--trusted-proxy', '10.0.0.0/8, 192.0.2.7,2001:db8::/32'])).toMatchObject({
      ok: true,
      options: { trustedProxies: ['10.0.0.0/8', '192.0.2.7', '2001:db8::/32'] },
    });
    for (const bad of ['nginx', '10.0.0.0/33', '10.0.0.0/x', '300.1.1.1']) {
      expect(parseForwarderArgs(['--trusted-proxy', bad]), bad).toEqual({ ok: false, error: `--trusted-proxy: not an address or CIDR block: ${bad}` });
    }
  });

  it('checks hub ids against --cloud-url, trusts them only with --trust-hub-ids, and refuses them by default', () => {
    expect(parseForwarderArgs(['--cloud-url', 'https://cloud.example/'])).toMatchObject({
      ok: true,
      options: { hubIds: { verify: { cloudUrl: 'https://cloud.example/' } } },
    });
    expect(parseForwarderArgs(['--cloud-url=http://127.0.0.1:4000'])).toMatchObject({
      ok: true,
      options: { hubIds: { verify: { cloudUrl: 'http://127.0.0.1:4000' } } },
    });
    expect(parseForwarderArgs(['--trust-hub-ids'])).toMatchObject({ ok: true, options: { hubIds: 'trust' } });
    // The key set is fetched from it: in the clear only on this host; no credentials in a URL that is logged.
    for (const bad of ['http://cloud.example', 'cloud.example', 'https://user:pw@cloud.example', 'https://cloud.example/?x=1', 'ftp://cloud.example', '']) {
      expect(parseForwarderArgs(['--cloud-url', bad]), bad).toEqual({
        ok: false,
        error: '--cloud-url must be an https:// URL (http:// on loopback only) without credentials, query or fragment',
      });
    }
    expect(parseForwarderArgs(['--cloud-url', 'https://cloud.example', '--trust-hub-ids'])).toEqual({
      ok: false,
      error: '--cloud-url and --trust-hub-ids exclude each other: with a cloud, hub ids are checked',
    });
  });

  it('refuses what is not an option it has, or not a port, saying which', () => {
    const refused = (args: string[]) => {
      const parsed = parseForwarderArgs(args);
      return parsed.ok ? 'accepted' : parsed.error;
    };
    expect(refused(['--port', '65536'])).toBe('--port must be a port number from 0 to 65535, not "65536"');
    expect(refused(['--portal-port', '-1'])).toMatch(/--portal-port/);
    expect(refused(['--admin-port', '99999'])).toBe('--admin-port must be a port number from 0 to 65535, not "99999"');
    expect(refused(['--admin-host', ' '])).toBe('--admin-host must not be empty');
    expect(refused(['--port', '80.5'])).toBe('--port must be a port number from 0 to 65535, not "80.5"');
    expect(refused(['--port', ' 80'])).toMatch(/not " 80"/);
    expect(refused(['--host', ''])).toBe('--host must not be empty');
    expect(refused(['--nope'])).toMatch(/Unknown option '--nope'/);
    expect(refused(['stray'])).toMatch(/Unexpected argument 'stray'/);
    expect(refused(['--port'])).toMatch(/--port/);
  });
});
