// How long one render takes for a given size of record data, to choose WRS_PDF_INPUT_LIMIT_BYTES.
// Renders in this thread with the real worker function (no pool, no queue): the render alone.
// Usage: node --import tsx bench/pdf-input-size.ts [sizes in KiB...]
import { table } from '@pdfme/schemas';
import renderPdf from '../src/providers/pdf/render-worker.js';

const A4 = { width: 210, height: 297, padding: [10, 10, 10, 10] };
const box = { position: { x: 20, y: 20 }, width: 170, height: 250, fontSize: 10 };

// A text box the size of the page, and a table (pdfme lays out every row, adding pages as needed).
const shapes = {
  text: {
    template: { basePdf: A4, schemas: [[{ name: 'note', type: 'text', ...box }]] },
    inputs: (bytes: number) => ({ note: words(bytes) }),
  },
  table: {
    template: {
      basePdf: A4,
      schemas: [[{ ...table.propPanel.defaultSchema, name: 'rows', ...box, head: ['item', 'detail'], headWidthPercentages: [30, 70] }]],
    },
    inputs: (bytes: number) => {
      const rows: string[][] = [];
      let size = 2;
      while (size < bytes) {
        const row = [`item ${rows.length}`, words(40)];
        size += JSON.stringify(row).length + 1;
        rows.push(row);
      }
      return { rows: JSON.stringify(rows) };
    },
  },
};

function words(bytes: number): string {
  const word = 'lorem ipsum dolor sit amet ';
  return word.repeat(Math.ceil(bytes / word.length)).slice(0, bytes);
}

const sizesKiB = process.argv.slice(2).map(Number);
const sizes = (sizesKiB.length > 0 ? sizesKiB : [1, 4, 16, 64, 256, 1024]).map((kib) => kib * 1024);

await renderPdf({ template: shapes.text.template, inputs: { note: 'warm up' }, title: 'warm', createdAt: new Date().toISOString() });
for (const [name, shape] of Object.entries(shapes)) {
  for (const bytes of sizes) {
    const started = performance.now();
    const outcome = await renderPdf({ template: shape.template, inputs: shape.inputs(bytes), title: 't', createdAt: new Date().toISOString() });
    const ms = performance.now() - started;
    const pages = outcome.ok ? `${outcome.pages} pages` : `refused: ${outcome.reason.slice(0, 60)}`;
    console.log(`${name.padEnd(6)} ${String(bytes / 1024).padStart(5)} KiB  ${ms.toFixed(0).padStart(7)} ms  ${pages}`);
  }
}
