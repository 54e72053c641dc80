// Regenerates clients/typescript/src/schema.ts from the app's OpenAPI document: `npm run client:generate`.
import { writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { CLIENT_SCHEMA_FILE, renderClientSchema } from './client/client-schema.js';
import { buildServedOpenApiDocument } from './openapi/served-document.js';

const source = await renderClientSchema(await buildServedOpenApiDocument());
await writeFile(CLIENT_SCHEMA_FILE, source);
console.log(`wrote ${relative(process.cwd(), CLIENT_SCHEMA_FILE)}`);
