import { describe, expect, it } from 'vitest';
import { checkTargetUrl } from './webhook-target.js';

const production = { allowLocal: false };
const development = { allowLocal: true };
const reason = (url: string, options = production) => {
  const checked = checkTargetUrl(url, options);
  return checked.ok ? null : checked.reason;
};

describe('webhook target URLs', () => {
  it('accepts public HTTPS URLs, names and literals', () => {
    expect(reason('https://hooks.example.com/aml')).toBeNull();
    expect(reason('https://93.184.216.34:8443/x?y=1')).toBeNull();
    expect(reason('https://[2606:4700::1111]/x')).toBeNull();
  });

  it('refuses other schemes, credentials, and non-URLs', () => {
    expect(reason('http://hooks.example.com/')).toMatch(/https/);
    expect(reason('ftp://hooks.example.com/')).toMatch(/https/);
    expect(reason('https://user:pw@hooks.example.com/')).toMatch(/credentials/);
    expect(reason('hooks.example.com/aml')).toMatch(/not an absolute URL/);
    expect(reason(`https://example.com/${'a'.repeat(2100)}`)).toMatch(/longer/);
  });

  it('refuses private, loopback, link-local and metadata literals in every spelling', () => {
    for (const url of [
      'https://10.0.0.7/',
      'https://127.0.0.1/',
      'https://2130706433/', // 127.0.0.1 in decimal: the URL parser normalizes it
      'https://0x7f.1/',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/',
      'https://[::ffff:169.254.169.254]/',
      'https://[fd00:ec2::254]/',
      'https://0.0.0.0/',
      'https://localhost/',
      'https://api.localhost/',
    ]) {
      expect(reason(url), url).toMatch(/refused target/);
    }
  });

  it('WEBHOOK_ALLOW_LOCAL lets http:// and https:// reach loopback only: literals and localhost names alike', () => {
    expect(reason('http://127.0.0.1:8080/hook', development)).toBeNull();
    expect(reason('http://[::1]:8080/hook', development)).toBeNull();
    expect(reason('https://localhost:8443/hook', development)).toBeNull();
    // as docs/api.md says: a receiver on your machine, by name as by address, on http:// as on https://
    expect(reason('http://localhost:3000/hook', development)).toBeNull();
    expect(reason('http://hooks.localhost/hook', development)).toBeNull();
    expect(reason('http://localhost:3000/hook')).toMatch(/https/);
    expect(reason('http://10.0.0.7/hook', development)).toMatch(/https/);
    expect(reason('https://10.0.0.7/hook', development)).toMatch(/private/);
    expect(reason('http://hooks.example.com/', development)).toMatch(/https/);
  });
});
