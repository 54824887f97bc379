import { expect } from 'chai';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';

type Doc = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, unknown> } };

function documentedOperations(doc: Doc): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
}

function servedOperations(tk: TestKernel): string[] {
  return tk.kernel.endpoints.map((e) => `${e.method} ${e.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`).sort();
}

describe('GET /openapi.json', () => {
  let tk: TestKernel;
  let doc: Doc;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'components'], auth: { mode: 'none' } });
    const res = await tk.request('GET', '/openapi.json');
    expect(res.status).to.equal(200);
    doc = res.body as Doc;
  });
  after(() => tk.close());

  it('passes an independent OpenAPI 3.1 validator', async () => {
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors, JSON.stringify(result.errors, null, 1)).to.equal(undefined);
    expect(result.valid).to.equal(true);
    expect((doc as any).openapi).to.equal('3.1.0');
  });

  it('holds only schemas that compile as JSON Schema 2020-12', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    for (const name of Object.keys(doc.components.schemas)) {
      expect(() => ajv.getSchema(`doc#/components/schemas/${name}`), name).to.not.throw();
    }
  });

  it('lists exactly the operations the router serves', () => {
    expect(documentedOperations(doc)).to.deep.equal(servedOperations(tk));
  });

  it('carries permission, paging, parameters and the error schema of each route', () => {
    const list = doc.paths['/components']?.get;
    expect(list['x-permission']).to.equal('runtime:component:read');
    expect(list['x-paging']).to.deep.equal({ default_limit: 100, max_limit: 500, cursor_in: 'header' });
    const names = (list.parameters as Array<{ name: string; in: string }>).map((p) => `${p.in}:${p.name}`);
    expect(names).to.include.members(['query:state', 'query:tag', 'query:tenant_id', 'query:limit', 'query:cursor']);
    expect(list.responses['200'].headers['X-Next-Cursor']).to.be.an('object');
    expect(list.responses['403']).to.deep.equal({ $ref: '#/components/responses/Error403' });
    const create = doc.paths['/components']?.post;
    expect(create.requestBody.content['application/json'].schema.properties).to.have.property('tenant_id');
    expect(create.responses['409']).to.be.an('object');
    expect(doc.paths['/health']?.get.security).to.deep.equal([]);
  });

  it('declares the error schema of the spec', () => {
    const error = doc.components.schemas.Error as any;
    expect(error.properties.error.required).to.deep.equal(['code', 'message', 'status']);
  });
});

describe('a disabled plugin', () => {
  it('leaves no trace in the router or the OpenAPI document', async () => {
    const tk = await startKernel({ plugins: ['system'], auth: { mode: 'none' } });
    try {
      const doc = (await tk.request('GET', '/openapi.json')).body as Doc;
      expect(Object.keys(doc.paths).filter((p) => p.startsWith('/components'))).to.deep.equal([]);
      expect(servedOperations(tk).filter((op) => op.includes('/components'))).to.deep.equal([]);
      const res = await tk.request('GET', '/components');
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('not_found');
    } finally {
      await tk.close();
    }
  });
});
