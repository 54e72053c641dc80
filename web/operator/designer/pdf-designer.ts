// Loaded only when an operator opens a template (import() in template-editor.tsx): pdfme's
// designer with React and its widgets is its own bundle, never part of the console's script.
import { getDefaultFont, type Template } from '@pdfme/common';
import {
  barcodes,
  checkbox,
  date,
  dateTime,
  ellipse,
  image,
  line,
  multiVariableText,
  radioGroup,
  rectangle,
  select,
  svg,
  table,
  text,
  time,
} from '@pdfme/schemas';
import { Designer, Viewer } from '@pdfme/ui';

/** Keyed as the service's renderer keys them (src/providers/pdf/pdfme-plugins.ts), so a template designed here renders there. */
const PLUGINS = {
  Text: text,
  'Multi-Variable Text': multiVariableText,
  Image: image,
  SVG: svg,
  Line: line,
  Rectangle: rectangle,
  Ellipse: ellipse,
  Table: table,
  Date: date,
  Time: time,
  DateTime: dateTime,
  Select: select,
  Checkbox: checkbox,
  RadioGroup: radioGroup,
  ...barcodes,
};

/** The font the service renders with, bundled in @pdfme/common: nothing is fetched from another origin. */
const OPTIONS = { font: getDefaultFont(), lang: 'en' as const };

export interface MountedDesigner {
  template(): Template;
  destroy(): void;
}

export function mountDesigner(container: HTMLElement, template: Template, onChange: (template: Template) => void): MountedDesigner {
  const designer = new Designer({ domContainer: container, template, plugins: PLUGINS, options: OPTIONS });
  designer.onChangeTemplate(onChange);
  // pdfme draws first when its ResizeObserver reports the container's size; draw at once instead.
  designer.updateOptions(OPTIONS);
  return { template: () => designer.getTemplate(), destroy: () => designer.destroy() };
}

export interface MountedViewer {
  show(template: Template, inputs: Record<string, string>): void;
  destroy(): void;
}

/** pdfme's viewer: the template filled with one record's values, as the service's pdf_create step fills it. */
export function mountViewer(container: HTMLElement, template: Template, inputs: Record<string, string>): MountedViewer {
  const viewer = new Viewer({ domContainer: container, template, inputs: [inputs], plugins: PLUGINS, options: OPTIONS });
  viewer.updateOptions(OPTIONS);
  return {
    show(next, nextInputs) {
      viewer.updateTemplate(next);
      viewer.setInputs([nextInputs]);
    },
    destroy: () => viewer.destroy(),
  };
}
