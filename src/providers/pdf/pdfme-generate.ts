/**
 * pdfme's `generate`, imported by the render module through this file. In `dist/` the build
 * replaces this file with pdfme's generator rebuilt so that it no longer loads every schema
 * plugin (`scripts/build-pdfme-generator.mjs`; why in docs/pdf-step.md, "Storage and
 * rendering"); under tsx (tests, `npm run dev`) it is the package as published.
 */
export { generate } from '@pdfme/generator';
