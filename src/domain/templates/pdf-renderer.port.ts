export interface RenderRequest {
  /** Whose render this is: threads are shared fairly between companies. */
  companyId: string;
  /** A pdfme template `{basePdf, schemas}`. */
  template: unknown;
  /** Values by schema name. */
  inputs: Record<string, string>;
  title: string;
  /** ISO 8601; the PDF's creation date. */
  createdAt: string;
}

export interface RenderedPdf {
  bytes: Uint8Array;
  pages: number;
  sha256: string;
  /** Wall time of the render on its thread, waiting for a thread excluded. */
  renderMs: number;
}

/** What a renderer is doing right now. */
export interface RenderUsage {
  /** Renders holding a place on a thread. */
  readonly rendering: number;
  /** Renders waiting for a place. */
  readonly waiting: number;
  /** Render threads running. */
  readonly threads: number;
}

/** Renders pdfme templates into PDFs off the event loop. */
export interface PdfRenderer {
  render(request: RenderRequest): Promise<RenderedPdf>;
  /**
   * Whether a render of the company now would be placed or wait for a place, rather than be
   * refused at once as unavailable (too many waiting, or closing).
   */
  admits(companyId: string): boolean;
  /** Threads the renderer may use. */
  readonly workers: number;
  usage(): RenderUsage;
  close(): Promise<void>;
}

/** The template cannot render these inputs; the message is safe to show the caller. */
export class RenderRejectedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'RenderRejectedError';
  }
}

export class RenderTimeoutError extends Error {
  /** `what` names the step that ran out of time, when it was not the render itself. */
  constructor(
    readonly timeoutMs: number,
    what = 'PDF render',
  ) {
    super(`${what} did not finish within ${timeoutMs} ms`);
    this.name = 'RenderTimeoutError';
  }
}

/** Why a render is refused at once: too many of them wait for a place. */
export const TOO_MANY_WAITING = 'too many PDF renders are waiting; retry shortly';

/** The renderer could not take or finish the job (queue full, shutting down, worker lost). */
export class RendererUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RendererUnavailableError';
  }
}
