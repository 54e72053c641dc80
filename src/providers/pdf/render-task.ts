/**
 * What crosses the thread boundary between the service and a render worker: plain,
 * structured-cloneable data only.
 */
export interface RenderTask {
  /** A pdfme template `{basePdf, schemas}` as stored. */
  template: unknown;
  /** Values by schema name; pdfme renders strings. */
  inputs: Record<string, string>;
  /** Written into the PDF's metadata. */
  title: string;
  /** ISO 8601; the PDF's creation and modification date. */
  createdAt: string;
}

/** A render either succeeds or names why this template cannot render these inputs. */
export type RenderOutcome = { ok: true; pdf: Uint8Array; pages: number; sha256: string } | { ok: false; reason: string };
