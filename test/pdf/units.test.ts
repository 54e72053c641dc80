import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkPdfFilename } from '../../src/domain/steps/pdf-filename.js';
import { loadConfig } from '../../src/config/config.js';
import { inputBytes, recordInputs } from '../../src/domain/steps/record-inputs.js';
import { recordInputs as operatorPreviewInputs } from '../../web/operator/record-inputs.js';
import { describePdfmeCheck } from '../../src/providers/pdf/pdfme-template-checker.js';
import { attachmentDisposition } from '../../src/http/content-disposition.js';

describe('pdf_filename rules', () => {
  it('appends .pdf when absent and keeps it, in any case, when present', () => {
    assert.deepEqual(checkPdfFilename('report'), { ok: true, filename: 'report.pdf' });
    assert.deepEqual(checkPdfFilename('report.pdf'), { ok: true, filename: 'report.pdf' });
    assert.deepEqual(checkPdfFilename('Report.PDF'), { ok: true, filename: 'Report.PDF' });
    assert.deepEqual(checkPdfFilename('report.pdf.txt'), { ok: true, filename: 'report.pdf.txt.pdf' });
    assert.deepEqual(checkPdfFilename('Überweisung März'), { ok: true, filename: 'Überweisung März.pdf' });
  });

  it('counts the 255-byte limit in UTF-8, .pdf included', () => {
    assert.equal(checkPdfFilename('é'.repeat(125)).ok, true);
    assert.equal(checkPdfFilename('é'.repeat(126)).ok, false);
  });

  it('never accepts a name with a separator, a control character or a bidi control', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('/', '\\', '\u0000', '\n', '\r', '\u007f', '\u0085', '\u202e', '\u2066'), fc.string(), (a, bad, b) => {
        assert.equal(checkPdfFilename(`${a}${bad}${b}`).ok, false);
      }),
    );
  });
});

describe('Content-Disposition', () => {
  it('quotes a plain ASCII name as is', () => {
    assert.equal(attachmentDisposition('Invoice 42.pdf'), 'attachment; filename="Invoice 42.pdf"');
  });

  it('adds filename* (RFC 5987) with a safe ASCII fallback otherwise', () => {
    assert.equal(
      attachmentDisposition('naïve "quote" 100%.pdf'),
      `attachment; filename="na_ve _quote_ 100_.pdf"; filename*=UTF-8''na%C3%AFve%20%22quote%22%20100%25.pdf`,
    );
  });

  it('is always a valid header value whose filename* decodes back to the name', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1 }), (name) => {
        const checked = checkPdfFilename(name);
        fc.pre(checked.ok);
        const header = attachmentDisposition(checked.ok ? checked.filename : '');
        assert.match(header, /^[\x20-\x7e]+$/);
        const quoted = /filename="([^"\\]*)"/.exec(header);
        assert.ok(quoted, header);
        const extended = /filename\*=UTF-8''([A-Za-z0-9!#$&+.^_`|~%-]+)$/.exec(header);
        const decoded = extended ? decodeURIComponent(extended[1]!) : quoted[1];
        assert.equal(decoded, checked.ok ? checked.filename : '');
      }),
    );
  });
});

describe('record values as template inputs', () => {
  it('writes every value as a string and lets id, status and created_at win', () => {
    const inputs = recordInputs({
      id: 'rec-1',
      status: 'new',
      created_at: '2026-01-01T00:00:00.000Z',
      fields: { name: 'Ada', amount: 12.5, paid: false, due: '2026-02-01', empty: null, tags: ['a', 'b'], id: 'shadowed' },
    });
    assert.deepEqual(inputs, {
      name: 'Ada',
      amount: '12.5',
      paid: 'false',
      due: '2026-02-01',
      empty: '',
      tags: '["a","b"]',
      id: 'rec-1',
      status: 'new',
      created_at: '2026-01-01T00:00:00.000Z',
    });
  });

  // web/ imports nothing from src/, so the operator page's preview keeps its own copy.
  it('gives the operator page preview the inputs the pdf_create step renders', () => {
    const record = fc.record({
      id: fc.string(),
      status: fc.string(),
      created_at: fc.string(),
      fields: fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('id', 'status', 'created_at')), fc.jsonValue()),
    });
    fc.assert(
      fc.property(record, (given) => {
        assert.deepEqual(operatorPreviewInputs(given), recordInputs(given));
      }),
    );
  });

  it('measures what a render takes in as the UTF-8 bytes of every name and value', () => {
    assert.equal(inputBytes({ note: 'März', id: 'r1' }), 4 + 5 + 2 + 2);
    assert.equal(inputBytes({}), 0);
  });
});

describe('PDF render settings', () => {
  const settings = (env: Record<string, string> = {}) => loadConfig({ NODE_ENV: 'test', WRS_DATABASE_URL: 'sqlite::memory:', ...env }).pdf;

  it('caps record data at 32 KiB and waits for a thread as long as a render may take, unless told otherwise', () => {
    assert.equal(settings().inputLimitBytes, 32_768);
    assert.equal(settings().queueTimeoutMs, 15_000);
    assert.equal(settings({ WRS_PDF_TIMEOUT_MS: '4000' }).queueTimeoutMs, 4000);
    assert.equal(settings({ WRS_PDF_TIMEOUT_MS: '4000', WRS_PDF_QUEUE_TIMEOUT_MS: '250' }).queueTimeoutMs, 250);
    assert.equal(settings({ WRS_PDF_INPUT_LIMIT_BYTES: '4096' }).inputLimitBytes, 4096);
  });

  it('refuses a queue timeout or input cap that is not a positive whole number', () => {
    assert.throws(() => settings({ WRS_PDF_QUEUE_TIMEOUT_MS: '0' }), /WRS_PDF_QUEUE_TIMEOUT_MS/);
    assert.throws(() => settings({ WRS_PDF_INPUT_LIMIT_BYTES: '100' }), /WRS_PDF_INPUT_LIMIT_BYTES/);
    assert.throws(() => settings({ WRS_PDF_INPUT_LIMIT_BYTES: '1.5e4' }), /WRS_PDF_INPUT_LIMIT_BYTES/);
  });
});

describe('pdfme check messages', () => {
  it("turns pdfme's issue blocks into one line naming each position", () => {
    const message =
      '[@pdfme/common] Invalid argument:\n--------------------------\nERROR POSITION: schemas.0.0.width\n' +
      'ERROR MESSAGE: Invalid input: expected number, received undefined\n--------------------------';
    assert.equal(describePdfmeCheck(new Error(message)), 'schemas.0.0.width: Invalid input: expected number, received undefined');
  });
});
