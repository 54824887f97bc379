import { expect } from 'chai';
import { CLIENT_FILES, clientFiles, committedFile, serverDocument } from './support/api-types.js';

describe('console typed client', function () {
  this.timeout(120_000);

  it("the committed client matches a freshly booted server's /openapi.json (run `npm run console:types` when it fails)", async () => {
    const fresh = await clientFiles(await serverDocument());
    for (const key of Object.keys(CLIENT_FILES) as Array<keyof typeof CLIENT_FILES>) {
      expect(committedFile(CLIENT_FILES[key]), `${CLIENT_FILES[key]} is stale`).to.equal(fresh[key]);
    }
  });
});
