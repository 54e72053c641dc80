// Regenerates clients/typescript/src/schema.ts and named-schemas.ts from the app's OpenAPI document: `npm run client:generate`.
import { writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { renderClientFiles } from './client/client-schema.js';
import { buildServedOpenApiDocument } from './openapi/served-document.js';

for (const [file, source] of await renderClientFiles(await buildServedOpenApiDocument())) {
  await writeFile(file, source);
  console.log(`wrote ${relative(process.cwd(), file)}`);
}
