import { expect } from 'chai';
import { originCheck } from '../../../kernel/http/origin.js';

describe('the WebSocket Origin check', () => {
  it('allows a request without Origin (not a browser) and listed origins only', () => {
    const allowed = originCheck({
      allowed: ['https://console.example.com', 'http://studio.example.com:8443/'],
      loopback: false,
    });
    expect(allowed(undefined)).to.equal(true);
    expect(allowed('https://console.example.com')).to.equal(true);
    expect(allowed('http://studio.example.com:8443')).to.equal(true);
    expect(allowed('https://console.example.com.evil.example')).to.equal(false);
    expect(allowed('http://console.example.com')).to.equal(false);
    expect(allowed('http://localhost:5173')).to.equal(false);
    expect(allowed('null')).to.equal(false);
    expect(allowed('not a url')).to.equal(false);
  });

  it('allows loopback origins only when configured (the local profile)', () => {
    const local = originCheck({ allowed: [], loopback: true });
    for (const origin of [
      'http://localhost:5173',
      'http://127.0.0.1:8080',
      'http://[::1]:3000',
      'http://app.localhost',
    ])
      expect(local(origin), origin).to.equal(true);
    expect(local('http://127.example.com')).to.equal(false);
    expect(local('https://evil.example')).to.equal(false);
  });

  it('allows any origin with *', () => {
    expect(originCheck({ allowed: ['*'], loopback: false })('https://anywhere.example')).to.equal(true);
  });
});
