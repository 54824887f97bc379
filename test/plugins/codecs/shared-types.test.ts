import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { decode, encode } from './http.js';

/** Issue 23 item 10: an Avro codec may use the named types another Avro codec of its tenant defines. */
describe("codecs: avro schemas use named types of the tenant's other avro codecs", function () {
  this.timeout(120_000);
  let tk: TestKernel;

  before(async () => {
    tk = await startKernel({ plugins: ['system', 'audit', 'codecs'], auth: { mode: 'none' } });
  });
  after(() => tk?.close());

  const create = (id: string, schema: unknown, tenant = 'default') =>
    tk.request('POST', '/codecs', { body: { tenant_id: tenant, id, name: id, kind: 'avro', schema } });

  const ADDRESS = {
    type: 'record',
    name: 'Address',
    namespace: 'com.example',
    fields: [
      { name: 'street', type: 'string' },
      { name: 'country', type: { type: 'enum', name: 'Country', symbols: ['FR', 'DE', 'NL'] } },
    ],
  };

  it('resolves "com.example.Address" from the codec that defines it, round-trips values, and pins the definition', async () => {
    expect((await create('addresses', ADDRESS)).status).to.equal(201);
    const order = {
      type: 'record',
      name: 'Order',
      namespace: 'com.example.orders',
      fields: [
        { name: 'id', type: 'string' },
        { name: 'ship_to', type: 'com.example.Address' },
        { name: 'bill_to', type: ['null', 'com.example.Address'], default: null },
        { name: 'origin', type: 'com.example.Country' },
      ],
    };
    const made = await create('orders', order);
    expect(made.status, made.text).to.equal(201);
    // The stored schema stands alone: the definition copied in at its first use, used by name after.
    expect(made.body.schema.fields[1].type).to.deep.include({ type: 'record', name: 'com.example.Address' });
    expect(made.body.schema.fields[2].type).to.deep.equal(['null', 'com.example.Address']);
    expect(made.body.schema.fields[3].type).to.equal('com.example.Country');

    const value = {
      id: 'o-1',
      ship_to: { street: '1 rue de la Paix', country: 'FR' },
      bill_to: { street: 'Damrak 1', country: 'NL' },
      origin: 'DE',
    };
    const encoded = await encode(tk, 'orders', value);
    expect(encoded.status, JSON.stringify(encoded.body)).to.equal(200);
    const decoded = await decode(tk, 'orders', encoded.bytes);
    expect(decoded.status, JSON.stringify(decoded.body)).to.equal(200);
    expect(decoded.body.value).to.deep.equal(value);

    // A later change of the defining codec does not change the codec that used it (pinned).
    const changed = await tk.request('PUT', '/codecs/addresses', {
      body: {
        name: 'addresses',
        schema: { ...ADDRESS, fields: [...ADDRESS.fields, { name: 'zip', type: 'string', default: '' }] },
      },
    });
    expect(changed.status, changed.text).to.equal(200);
    const again = await decode(tk, 'orders', encoded.bytes);
    expect(again.body.value).to.deep.equal(value);
  });

  it('refuses a name no codec of the tenant defines with 400 naming its pointer, and never looks in another tenant', async () => {
    const missing = await create('invoices', {
      type: 'record',
      name: 'Invoice',
      fields: [
        { name: 'id', type: 'string' },
        { name: 'payer', type: 'com.example.Customer' },
      ],
    });
    expect(missing.status, missing.text).to.equal(400);
    expect(missing.body.error.details[0].pointer).to.equal('/schema/fields/1/type');
    expect(missing.body.error.details[0].message).to.include('"com.example.Customer"');
    const elsewhere = await create(
      'orders',
      { type: 'record', name: 'Order', fields: [{ name: 'to', type: 'com.example.Address' }] },
      'other',
    );
    expect(elsewhere.status, elsewhere.text).to.equal(400);
    expect(elsewhere.body.error.details[0].pointer).to.equal('/schema/fields/0/type');
  });

  it('brings along the types a shared type itself uses, and refuses a name two codecs define differently', async () => {
    const people = {
      type: 'record',
      name: 'People',
      namespace: 'com.nested',
      fields: [
        { name: 'home', type: { type: 'record', name: 'Address', fields: [{ name: 'street', type: 'string' }] } },
        { name: 'customer', type: { type: 'record', name: 'Customer', fields: [{ name: 'at', type: 'Address' }] } },
      ],
    };
    expect((await create('people', people)).status).to.equal(201);
    const accounts = await create('accounts', {
      type: 'record',
      name: 'Account',
      fields: [{ name: 'owner', type: 'com.nested.Customer' }],
    });
    expect(accounts.status, accounts.text).to.equal(201);
    const value = { owner: { at: { street: 'Main St 1' } } };
    const encoded = await encode(tk, 'accounts', value);
    expect(encoded.status, JSON.stringify(encoded.body)).to.equal(200);
    expect((await decode(tk, 'accounts', encoded.bytes)).body.value).to.deep.equal(value);

    const other = {
      type: 'record',
      name: 'Address',
      namespace: 'com.nested',
      fields: [{ name: 'line', type: 'string' }],
    };
    expect((await create('addresses-v2', other)).status).to.equal(201);
    const ambiguous = await create('letters', {
      type: 'record',
      name: 'Letter',
      fields: [{ name: 'to', type: 'com.nested.Address' }],
    });
    expect(ambiguous.status, ambiguous.text).to.equal(400);
    expect(ambiguous.body.error.details[0].pointer).to.equal('/schema/fields/0/type');
    expect(ambiguous.body.error.details[0].message).to.include('defined differently by the codecs');
  });
});
