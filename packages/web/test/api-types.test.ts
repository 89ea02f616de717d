// @vitest-environment node
import fs from 'node:fs';
import { expect, it } from 'vitest';
import { apiTypes, openApiDocument, schemaFile } from '../scripts/api-types.mjs';

it("the committed API types are the ones the service's OpenAPI document gives (else: npm run api-types -w packages/web)", async () => {
  const fresh = await apiTypes(await openApiDocument());
  expect(fs.readFileSync(schemaFile, 'utf8') === fresh, 'src/api/schema.gen.ts is stale: run `npm run api-types -w packages/web`').toBe(true);
}, 120_000);
