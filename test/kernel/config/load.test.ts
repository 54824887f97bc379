import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { loadConfig, ConfigError } from '../../../kernel/config/load.js';
import { fromRoot } from '../../../kernel/paths.js';

describe('configuration', () => {
  it('takes the local profile by default with its documented defaults', () => {
    const config = loadConfig({ env: {} });
    expect(config.profile).to.equal('local');
    expect(config.http).to.include({ host: '127.0.0.1', port: 8080, body_limit_bytes: 1048576 });
    expect(config.database.data_dir).to.equal('./data');
  });

  it('fills in the WebSocket and event-stream limits, allowing loopback origins in the local profile only', () => {
    const local = loadConfig({ env: {} });
    expect(local.http.websocket).to.deep.equal({
      allowed_origins: [],
      allow_loopback_origins: true,
      max_payload_bytes: 1048576,
      max_sockets_per_subject: 32,
      ping_interval_ms: 30000,
      revalidate_interval_ms: 1000,
    });
    expect(local.http.sse).to.deep.equal({ heartbeat_ms: 15000 });
    const production = loadConfig({ env: { RUNTIME_PROFILE: 'production', DATABASE_URL: 'postgres://db/x' } });
    expect(production.http.websocket.allow_loopback_origins).to.equal(false);
    expect(() =>
      loadConfig({ env: {}, overrides: { http: { websocket: { allowed_origins: ['console.example.com'] } } } }),
    ).to.throw(ConfigError, /\/http\/websocket\/allowed_origins\/0/);
  });

  it('lets the environment override the profile', () => {
    const config = loadConfig({
      env: { PORT: '9090', HOST: '0.0.0.0', RUNTIME_DATA_DIR: '/tmp/x', DATABASE_URL: 'postgres://db/x' },
    });
    expect(config.http.port).to.equal(9090);
    expect(config.http.host).to.equal('0.0.0.0');
    expect(config.database).to.include({ data_dir: '/tmp/x', url: 'postgres://db/x' });
  });

  it('freezes the configuration', () => {
    const config = loadConfig({ env: {} });
    expect(Object.isFrozen(config)).to.equal(true);
    expect(Object.isFrozen(config.http)).to.equal(true);
    expect(() => {
      (config.http as { port: number }).port = 1;
    }).to.throw(TypeError);
  });

  it('rejects an invalid value with a message that names it', () => {
    expect(() => loadConfig({ env: { PORT: 'eighty' } })).to.throw(ConfigError, /PORT must be an integer/);
    expect(() => loadConfig({ env: {}, overrides: { http: { port: 70000 } } })).to.throw(ConfigError, /\/http\/port/);
    expect(() => loadConfig({ env: { RUNTIME_PROFILE: 'staging' } })).to.throw(
      ConfigError,
      /RUNTIME_PROFILE must be one of/,
    );
  });

  it('refuses the production profile without DATABASE_URL', () => {
    expect(() => loadConfig({ env: { RUNTIME_PROFILE: 'production' } })).to.throw(
      ConfigError,
      /production profile needs DATABASE_URL/,
    );
  });

  it('refuses the production profile with no authenticator, saying what to configure', () => {
    expect(() =>
      loadConfig({ env: { RUNTIME_PROFILE: 'production', DATABASE_URL: 'postgres://x/y', RUNTIME_AUTH_MODE: 'none' } }),
    ).to.throw(ConfigError, /enable an authenticator/);
  });

  it('exits with a non-zero code and a clear message when the configuration is invalid', () => {
    const run = spawnSync(process.execPath, [fromRoot('dist', 'kernel', 'main.js')], {
      env: { ...process.env, PORT: 'nope' },
      encoding: 'utf8',
      timeout: 20000,
    });
    expect(run.status).to.equal(2);
    expect(run.stderr).to.include('PORT must be an integer');
  });
});
