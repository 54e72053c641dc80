/**
 * Spread on an element whose children another library (pdfme's React) draws: with unchanged
 * inner HTML, Preact leaves the element's children alone when it renders again.
 */
export const FOREIGN_CHILDREN = { dangerouslySetInnerHTML: { __html: '' } } as const;
