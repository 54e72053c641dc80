import { createHash } from 'node:crypto';
import { getDefaultFont } from '@pdfme/common';
import type { Template } from '@pdfme/common';
import { PDFDocument } from '@pdfme/pdf-lib';
import { generate } from './pdfme-generate.js';
import { pluginsFor, pluginsLoading } from './pdfme-plugins.js';
import type { RenderOutcome, RenderTask } from './render-task.js';

// Decoded once per worker thread; the only font offered, so nothing is ever fetched.
const FONT = getDefaultFont();
const MAX_REASON_LENGTH = 500;

/**
 * Called once per thread before it takes renders. Loading this module (pdfme, its built-in
 * plugins, the decoded font) is the work; doing it here keeps it off the first render's clock.
 */
export function warmup(): boolean {
  return true;
}

/** pdfme's full plugin set, on the first template that needs it: loaded off the render's clock. */
export function prepare(task: RenderTask): Promise<unknown> | undefined {
  try {
    return pluginsLoading(task.template as Template);
  } catch {
    // A template too malformed to list its schema types fails in the render, with its message.
    return undefined;
  }
}

/** Runs in a render thread (render-thread-main.ts): renders one PDF; several may be in flight at once. */
export default async function renderPdf(task: RenderTask): Promise<RenderOutcome> {
  try {
    const createdAt = new Date(task.createdAt);
    const template = task.template as Template;
    const pdf = await generate({
      template,
      inputs: [task.inputs],
      plugins: await pluginsFor(template),
      options: { font: FONT, title: task.title, creationDate: createdAt, modificationDate: createdAt },
    });
    const pages = (await PDFDocument.load(pdf, { updateMetadata: false })).getPageCount();
    const sha256 = createHash('sha256').update(pdf).digest('hex');
    return { ok: true, pdf, pages, sha256 };
  } catch (error) {
    return { ok: false, reason: describe(error) };
  }
}

/** pdfme's messages name the schema or input at fault; keep them, without the package tag. */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cleaned = message
    .replace(/\[@pdfme\/[a-z-]+\]\s*/g, '')
    .replace(/\s*Check this document: \S+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.length > MAX_REASON_LENGTH ? `${cleaned.slice(0, MAX_REASON_LENGTH)}...` : cleaned || 'render failed';
}
