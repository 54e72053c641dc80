#!/usr/bin/env node
// Part of `npm run build`, after tsc: writes dist/providers/pdf/pdfme-generate.js (or the file
// named by the first argument), pdfme's generator rebuilt with one import changed.
//
// @pdfme/generator imports { checkbox, radioGroup, text } from '@pdfme/schemas'. That index
// module loads every schema plugin with its designer icons, date-fns locales and barcode code
// (about 37 MB of a render thread's memory), although `generate` needs none of them: `text` is
// the built-in plugin, and checkbox and radioGroup are used only by `generateForm` (AcroForm
// fields), which the service never calls. Rebuilt here, the generator takes `text` from
// '@pdfme/schemas/builtins', and a render thread loads the other plugins only for a template
// that uses one (src/providers/pdf/pdfme-plugins.ts). Every other import stays a package
// import, so the thread shares one copy of each pdfme module with the render module.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT_FILE = process.argv[2] ?? `${ROOT}dist/providers/pdf/pdfme-generate.js`;

const SCHEMAS_INDEX = `
import { builtInPlugins } from '@pdfme/schemas/builtins';
export const text = builtInPlugins.Text;
// Only generateForm uses these two, and the service never calls it.
export const checkbox = undefined;
export const radioGroup = undefined;
`;

let indexReplaced = false;

/** Resolves the generator's import of the schemas index (the bare name, not its subpaths) to SCHEMAS_INDEX. */
const builtInSchemasOnly = {
  name: 'built-in-schemas-only',
  setup(builder) {
    builder.onResolve({ filter: /^@pdfme\/schemas$/ }, () => {
      indexReplaced = true;
      return { path: 'schemas-index', namespace: 'built-in-schemas-only' };
    });
    builder.onLoad({ filter: /.*/, namespace: 'built-in-schemas-only' }, () => ({ contents: SCHEMAS_INDEX, resolveDir: ROOT, loader: 'js' }));
  },
};

await build({
  entryPoints: [fileURLToPath(import.meta.resolve('@pdfme/generator'))],
  outfile: OUT_FILE,
  bundle: true,
  packages: 'external',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  plugins: [builtInSchemasOnly],
  logLevel: 'warning',
});

if (!indexReplaced) {
  throw new Error(`@pdfme/generator no longer imports '@pdfme/schemas': review ${fileURLToPath(import.meta.url)}`);
}
