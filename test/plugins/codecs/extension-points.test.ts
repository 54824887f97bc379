import { expect } from 'chai';
import { ApiError } from '../../../kernel/errors.js';
import { coreServices, createPlugin, extensionPoint, type Extensions } from '../../../kernel/plugin/api.js';
import type { CodecResolver } from '../../../plugins/streams/contract.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { decode, encode } from './http.js';

const ROT13_FIXTURE = { module: 'test/fixtures/codec-kind-plugin' };

/** What the streams plugin offers (plugins/streams/contract.ts on its branch), declared here as it does. */
const streamCodecs = extensionPoint<CodecResolver>('streams.codecs', { single: true });

/** Stands in for the streams plugin: offers `streams.codecs` and keeps what it was given. */
function streamsStandIn(): { plugin: ReturnType<typeof createPlugin>; resolver(): CodecResolver } {
  let extensions: Extensions | undefined;
  const plugin = createPlugin({
    id: 'streams-stand-in',
    manifest: { id: 'streams-stand-in', version: '1.0.0', summary: 'offers streams.codecs', routes: [] },
    deps: { extensions: coreServices.extensions },
    setup(services) {
      extensions = services.extensions;
      return { handlers: {}, offers: [streamCodecs] };
    },
  });
  return {
    plugin,
    resolver() {
      const [resolver] = (extensions as Extensions).all(streamCodecs);
      if (!resolver) throw new Error('nothing was contributed to streams.codecs');
      return resolver;
    },
  };
}

/** Runs `run` and returns the ApiError it throws. */
function apiError(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(ApiError);
    return error as ApiError;
  }
  return expect.fail('expected an ApiError');
}

describe('codecs: extension points', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  const streams = streamsStandIn();

  before(async () => {
    tk = await startKernel(
      { plugins: ['system', 'codecs', ROT13_FIXTURE], auth: { mode: 'none' } },
      { plugins: [streams.plugin] },
    );
    for (const body of [
      { id: 'secret', name: 'secret', kind: 'rot13' },
      {
        id: 'orders',
        name: 'orders',
        kind: 'json',
        schema: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
      },
    ]) {
      const res = await tk.request('POST', '/codecs', { body });
      expect(res.status, res.text).to.equal(201);
    }
  });
  after(() => tk?.close());

  describe('codecs.kinds: a third party adds a kind', () => {
    it('lists the contributed kind with the plugin that gave it', async () => {
      const res = await tk.request('GET', '/codec-kinds');
      expect(res.body.items.find((k: any) => k.kind === 'rot13')).to.deep.equal({
        kind: 'rot13',
        plugin: 'rot13-kind',
        schema_schema: null,
        schema_evolution: false,
      });
    });

    it('round-trips through the contributed kind over HTTP', async () => {
      const encoded = await encode(tk, 'secret', 'Hello, World');
      expect(encoded.status).to.equal(200);
      expect(encoded.bytes.toString('utf8')).to.equal('Uryyb, Jbeyq');
      expect((await decode(tk, 'secret', encoded.bytes)).body).to.deep.equal({ value: 'Hello, World' });
    });

    it("turns the kind's own errors into 400s naming the problem", async () => {
      const bytes = await decode(tk, 'secret', Uint8Array.from([0xff, 0xfe]));
      expect(bytes.status).to.equal(400);
      expect(bytes.body.error.message).to.contain('the bytes are not UTF-8 text');
      const value = await encode(tk, 'secret', 13);
      expect(value.status).to.equal(400);
      expect(value.body.error.details[0]).to.deep.equal({
        in: 'body',
        pointer: '/value',
        message: 'a rot13 codec encodes a string',
      });
      const schema = await tk.request('POST', '/codecs', {
        body: { name: 'with schema', kind: 'rot13', schema: { shift: 13 } },
      });
      expect(schema.status).to.equal(400);
      expect(schema.body.error.details[0]).to.deep.equal({
        in: 'body',
        pointer: '/schema',
        message: 'rot13 codecs take no schema',
      });
    });
  });

  describe('streams.codecs: the resolver the streams plugin uses', () => {
    it("resolves a tenant's codec by id into decode, encode and content type", async () => {
      const codec = await streams.resolver().resolve(tk.kernel.database.knex, 'default', 'orders');
      expect(codec?.contentType).to.match(/^application\/json/);
      const bytes = codec!.encode({ n: 3 });
      expect(Buffer.from(bytes).toString('utf8')).to.equal('{"n":3}');
      expect(codec!.decode(bytes)).to.deep.equal({ n: 3 });
      const rot = await streams.resolver().resolve(tk.kernel.database.knex, 'default', 'secret');
      expect(rot!.decode(rot!.encode('abc'))).to.equal('abc');
    });

    it("answers undefined for a codec the tenant does not have, another tenant's included", async () => {
      expect(await streams.resolver().resolve(tk.kernel.database.knex, 'default', 'missing')).to.equal(undefined);
      expect(await streams.resolver().resolve(tk.kernel.database.knex, 'other', 'orders')).to.equal(undefined);
    });

    it('throws validation_error (400) for bytes that do not decode and values that do not fit', async () => {
      const codec = (await streams.resolver().resolve(tk.kernel.database.knex, 'default', 'orders'))!;
      const bad = apiError(() => codec.decode(Buffer.from('{"n":')));
      expect(bad).to.include({ code: 'validation_error', status: 400 });
      const misfit = apiError(() => codec.encode({ n: 'three' }));
      expect(misfit).to.include({ code: 'validation_error', status: 400 });
      expect(misfit.details?.[0]).to.include({ pointer: '/n' });
    });
  });
});

describe('codecs: kinds at boot', function () {
  this.timeout(120_000);
  it('refuses to start when two plugins give the same kind name', async () => {
    const twin = createPlugin({
      id: 'rot13-twin',
      manifest: { id: 'rot13-twin', version: '1.0.0', summary: 'gives rot13 again', routes: [] },
      deps: {},
      setup: () => ({
        handlers: {},
        contributions: [
          {
            point: extensionPoint('codecs.kinds'),
            value: {
              kind: 'rot13',
              schemaSchema: null,
              compile: () => ({ contentType: 'x', decode: () => '', encode: () => new Uint8Array() }),
            },
          },
        ],
      }),
    });
    let failure = '';
    try {
      const tk = await startKernel(
        { plugins: ['system', 'codecs', ROT13_FIXTURE], auth: { mode: 'none' } },
        { plugins: [twin] },
      );
      await tk.close();
    } catch (error) {
      failure = String(error);
    }
    expect(failure).to.contain('codec kind rot13 is contributed by plugins rot13-kind and rot13-twin');
  });

  it('is ignored: the kernel boots and serves no codec routes', async () => {
    const tk = await startKernel({ plugins: ['system', ROT13_FIXTURE], auth: { mode: 'none' } });
    try {
      expect((await tk.request('GET', '/codec-kinds')).status).to.equal(404);
    } finally {
      await tk.close();
    }
  });
});
