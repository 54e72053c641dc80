import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { getDefaultFont, type Schema, type Template } from '@pdfme/common';
import { generate } from '@pdfme/generator';
import * as schemas from '@pdfme/schemas';
import { siblingModule } from '../../src/lib/module-thread.js';
import { pluginsFor } from '../../src/providers/pdf/pdfme-plugins.js';
import { childNodeFlags } from '../helpers/project-root.js';
import { readPdf } from './fixtures/read-pdf.js';
import { invoiceTemplate } from './fixtures/templates.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const A4 = { width: 210, height: 297, padding: [10, 10, 10, 10] as [number, number, number, number] };
const CREATED_AT = new Date('2026-01-01T00:00:00.000Z');

/** Every schema type a template may use, each as pdfme's designer first places it. */
const EVERY_TYPE = {
  text: schemas.text,
  multiVariableText: schemas.multiVariableText,
  image: schemas.image,
  svg: schemas.svg,
  line: schemas.line,
  rectangle: schemas.rectangle,
  ellipse: schemas.ellipse,
  table: schemas.table,
  date: schemas.date,
  time: schemas.time,
  dateTime: schemas.dateTime,
  select: schemas.select,
  checkbox: schemas.checkbox,
  radioGroup: schemas.radioGroup,
  ...schemas.barcodes,
};

interface RenderCase {
  template: Template;
  inputs: Record<string, string>;
}

/** A one-page template of one schema of `type`, with the designer's sample content as its input. */
function oneSchemaOf(type: keyof typeof EVERY_TYPE): RenderCase {
  const schema = { ...EVERY_TYPE[type].propPanel.defaultSchema, name: `the ${type}`, position: { x: 20, y: 20 } } as Schema;
  return { template: { basePdf: A4, schemas: [[schema]] }, inputs: schema.content === undefined ? {} : { [schema.name]: schema.content } };
}

const invoice = (): RenderCase => ({
  template: invoiceTemplate() as unknown as Template,
  inputs: { customer: 'Initech', amount: '7', paid: 'false', id: 'r-1', status: 'new', created_at: 'then' },
});

async function renderWithPublishedGenerator({ template, inputs }: RenderCase): Promise<Uint8Array> {
  return generate({
    template,
    inputs: [inputs],
    plugins: await pluginsFor(template),
    options: { font: getDefaultFont(), title: 'test', creationDate: CREATED_AT, modificationDate: CREATED_AT },
  });
}

describe('the plugins a render loads', () => {
  it('are the built-ins for a template of text alone, and every schema type otherwise', async () => {
    assert.deepEqual(Object.keys(await pluginsFor(invoice().template)), ['Text']);
    const table = await pluginsFor(oneSchemaOf('table').template);
    assert.ok(table.Table && table.Text && table.Checkbox && table.qrcode);
    const mixed = { ...invoice().template, schemas: [...invoice().template.schemas, oneSchemaOf('qrcode').template.schemas[0]!] };
    assert.equal(await pluginsFor(mixed), table, 'one schema of another type anywhere takes the full set');
  });

  it('render every schema type with pdfme as published', async () => {
    for (const type of Object.keys(EVERY_TYPE) as (keyof typeof EVERY_TYPE)[]) {
      const parsed = await readPdf(await renderWithPublishedGenerator(oneSchemaOf(type)));
      assert.equal(parsed.pages, 1, type);
    }
  });
});

describe("pdfme's generator as the build rebuilds it (scripts/build-pdfme-generator.mjs)", () => {
  // Under the project, so that the rebuilt module's package imports resolve as they do in dist/.
  const workDir = join(ROOT, 'node_modules', '.cache', 'wrs-test');
  let dir: string;
  let generatorFile: string;

  before(() => {
    mkdirSync(workDir, { recursive: true });
    dir = mkdtempSync(join(workDir, 'pdfme-'));
    generatorFile = join(dir, 'pdfme-generate.js');
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-pdfme-generator.mjs'), generatorFile]);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Renders the cases in order in a process of its own; per case, the PDF and whether the schemas index was loaded by then. */
  function renderInOrder(cases: RenderCase[]): { pdf: Buffer; indexLoaded: boolean }[] {
    const casesFile = join(dir, 'cases.json');
    const resolutionsFile = join(dir, `resolutions-${Date.now()}.txt`);
    writeFileSync(casesFile, JSON.stringify(cases));
    writeFileSync(resolutionsFile, '');
    const output = execFileSync(
      process.execPath,
      [
        ...childNodeFlags(import.meta.url),
        '--import',
        join(FIXTURES, 'record-resolutions.mjs'),
        siblingModule(import.meta.url, 'fixtures/render-with-generator'),
        generatorFile,
        casesFile,
      ],
      { encoding: 'utf8', env: { ...process.env, WRS_TEST_RESOLUTIONS_FILE: resolutionsFile }, maxBuffer: 64 * 2 ** 20 },
    );
    return output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { pdf: string; indexLoaded: boolean })
      .map(({ pdf, indexLoaded }) => ({ pdf: Buffer.from(pdf, 'base64'), indexLoaded }));
  }

  it('renders text without loading the other plugins, the same bytes as pdfme as published, and loads them for the first template that needs them', async () => {
    const types = (Object.keys(EVERY_TYPE) as (keyof typeof EVERY_TYPE)[]).filter((type) => type !== 'text');
    const results = renderInOrder([invoice(), oneSchemaOf('text'), ...types.map(oneSchemaOf), invoice()]);

    const [first, text, ...rest] = results;
    assert.equal(first!.indexLoaded, false, 'a template of text alone does not load @pdfme/schemas');
    assert.equal(text!.indexLoaded, false);
    assert.deepEqual(first!.pdf, Buffer.from(await renderWithPublishedGenerator(invoice())));
    const parsed = await readPdf(first!.pdf);
    assert.equal(parsed.pages, 2);
    assert.ok(parsed.text[0]!.includes('Record r-1 is new'));

    for (const [index, type] of types.entries()) {
      const result = rest[index]!;
      assert.equal(result.indexLoaded, true, type);
      assert.deepEqual(result.pdf, Buffer.from(await renderWithPublishedGenerator(oneSchemaOf(type))), `${type}: the same bytes as pdfme as published`);
    }
    assert.deepEqual(rest.at(-1)!.pdf, first!.pdf, 'text renders the same once every plugin is loaded');
  });
});
