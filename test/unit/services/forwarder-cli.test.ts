import { describe, expect, it } from 'vitest';
import { parseForwarderArgs } from '../../../services/forwarder-cli';

describe('npm run forwarder: its options', () => {
  it('defaults to loopback and any free ports', () => {
    expect(parseForwarderArgs([])).toEqual({ ok: true, options: { host: '127.0.0.1', port: 0, portalPort: 0 } });
    expect(parseForwarderArgs(['--host', '0.0.0.0', '--port', '8080', '--portal-port=8081'])).toEqual({ ok: true, options: { host: '0.0.0.0', port: 8080, portalPort: 8081 } });
  });

  it('refuses what is not an option it has, or not a port, saying which', () => {
    const refused = (args: string[]) => {
      const parsed = parseForwarderArgs(args);
      return parsed.ok ? 'accepted' : parsed.error;
    };
    expect(refused(['--port', '65536'])).toBe('--port must be a port number from 0 to 65535, not "65536"');
    expect(refused(['--portal-port', '-1'])).toMatch(/--portal-port/);
    expect(refused(['--port', '80.5'])).toBe('--port must be a port number from 0 to 65535, not "80.5"');
    expect(refused(['--port', ' 80'])).toMatch(/not " 80"/);
    expect(refused(['--host', ''])).toBe('--host must not be empty');
    expect(refused(['--nope'])).toMatch(/Unknown option '--nope'/);
    expect(refused(['stray'])).toMatch(/Unexpected argument 'stray'/);
    expect(refused(['--port'])).toMatch(/--port/);
  });
});
